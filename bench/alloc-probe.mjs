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
