// Preloaded (`--import`) into every process the bench starts (ours, the ceilings, the hello world): counts the bytes
// V8 allocates on the JS heap, so the bench can report allocation per answered request beside CPU per request
// (issue 44). Allocation is a far steadier figure than CPU time on a shared machine, and on the read routes most of the
// gap to the ceiling is garbage collection, that is, allocation.
//
// How: V8's GC profiler reports the heap's used size before and after each collection. What was allocated is what
// the heap grew by between collections: the sum of (used before a GC - used after the previous one), plus the growth
// since the last one. On SIGWINCH the probe writes that running total to BENCH_ALLOC_FILE (`<seq> <bytes>`): SIGWINCH
// because its default is to be ignored and no process here uses it (the service's close-with-grace ends on SIGUSR2).
import fs from 'node:fs';
import v8 from 'node:v8';

const file = process.env.BENCH_ALLOC_FILE;
if (file) {
  let profiler = new v8.GCProfiler();
  profiler.start();
  let lastUsed = v8.getHeapStatistics().used_heap_size;
  let allocated = 0;
  let seq = 0;
  process.on('SIGWINCH', () => {
    const { statistics } = profiler.stop();
    for (const gc of statistics) {
      allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - lastUsed);
      lastUsed = gc.afterGC.heapStatistics.usedHeapSize;
    }
    const used = v8.getHeapStatistics().used_heap_size;
    allocated += Math.max(0, used - lastUsed);
    lastUsed = used;
    profiler = new v8.GCProfiler();
    profiler.start();
    fs.writeFileSync(file, `${++seq} ${allocated}`);
  });
}

// BENCH_HEAP_SAMPLE=<file>: also V8's sampling heap profiler, counting what the collections took as well (not only
// what is live at the end), written to <file>.<pid>.heapprofile when the process exits: where allocation comes from.
const sampleFile = process.env.BENCH_HEAP_SAMPLE;
if (sampleFile) {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  process.on('exit', () => {
    // An in-thread inspector session answers synchronously, so this runs to the end inside 'exit'.
    session.post('HeapProfiler.stopSampling', (err, result) => {
      if (!err) fs.writeFileSync(`${sampleFile}.${process.pid}.heapprofile`, JSON.stringify(result.profile));
    });
  });
}
