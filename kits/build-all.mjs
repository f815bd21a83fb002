#!/usr/bin/env node
// Builds every kit's package, as its ecosystem ships it, into one folder, and prints what it made:
//   node kits/build-all.mjs [out-dir]      (default kits/dist)
// Only Debian's toolchains, nothing fetched (no PyPI, Go proxy, Maven Central or NuGet here):
//   python  the wheel (pip wheel --no-deps --no-build-isolation), with README, LICENSE and py.typed
//   go      the module zip of github.com/gameplatform/gamekit v<version>, laid out as a GOPROXY (file://.../go/proxy)
//   cpp     cmake --install of the library: headers, libgamekit.a, gamekitConfig.cmake (find_package(gamekit))
//   java    game-platform-kit-<version>.jar, -sources.jar and -javadoc.jar (javac, jar, javadoc) and the pom
//   csharp  GamePlatform.Kit.dll built by Mono's mcs (a .nupkg needs the .NET SDK: `dotnet pack`, not here)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const kits = path.dirname(new URL(import.meta.url).pathname);
const out = path.resolve(process.argv[2] ?? path.join(kits, 'dist'));
export const VERSION = '0.1.0';
const GO_MODULE = 'github.com/gameplatform/gamekit';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kits-build-'));

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    process.stderr.write(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? r.status}):\n${r.stdout}${r.stderr}`);
    process.exit(1);
  }
  return r.stdout;
}
const files = (dir) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
const mk = (...p) => fs.mkdirSync(path.join(out, ...p), { recursive: true });

// A module zip: every file under <root>/<module@version>/, names as they are (a zip of the staged tree).
const ZIP_PY = `
import os, sys, zipfile
root, at, dest = sys.argv[1:4]
with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
    for d, _, fs in sorted(os.walk(os.path.join(root, at))):
        for f in sorted(fs):
            p = os.path.join(d, f)
            z.write(p, os.path.relpath(p, root))
`;

fs.rmSync(out, { recursive: true, force: true });
const made = [];

// Python: build from a copy so no build/ or egg-info lands in the source folder.
{
  const src = path.join(tmp, 'python');
  fs.cpSync(path.join(kits, 'python'), src, {
    recursive: true,
    filter: (f) => !/__pycache__|\.egg-info|\/build$/.test(f),
  });
  mk('python');
  run('/usr/bin/python3', [
    '-m',
    'pip',
    'wheel',
    '--no-deps',
    '--no-build-isolation',
    '-q',
    '-w',
    path.join(out, 'python'),
    src,
  ]);
  made.push(...files(path.join(out, 'python')).map((f) => `python/${f}`));
}

// Go: the module zip (paths prefixed module@version/) with .mod and .info, as a GOPROXY serves them.
{
  const at = `${GO_MODULE}@v${VERSION}`;
  const dir = path.join(out, 'go/proxy', GO_MODULE, '@v');
  fs.mkdirSync(dir, { recursive: true });
  const stage = path.join(tmp, 'go', at);
  fs.mkdirSync(path.dirname(stage), { recursive: true });
  fs.cpSync(path.join(kits, 'go'), stage, { recursive: true });
  run('/usr/bin/python3', ['-c', ZIP_PY, path.join(tmp, 'go'), at, path.join(dir, `v${VERSION}.zip`)]);
  fs.copyFileSync(path.join(kits, 'go/go.mod'), path.join(dir, `v${VERSION}.mod`));
  fs.writeFileSync(
    path.join(dir, `v${VERSION}.info`),
    JSON.stringify({ Version: `v${VERSION}`, Time: '2025-01-01T00:00:00Z' }) + '\n',
  );
  fs.writeFileSync(path.join(dir, 'list'), `v${VERSION}\n`);
  made.push(...files(path.join(out, 'go')).map((f) => `go/${f}`));
}

// C++: configure as a top project without tests or examples, build, install.
{
  const build = path.join(tmp, 'cpp');
  run('cmake', [
    '-S',
    path.join(kits, 'cpp'),
    '-B',
    build,
    '-DCMAKE_BUILD_TYPE=Release',
    '-DGAMEKIT_BUILD_TESTS=OFF',
    '-DGAMEKIT_BUILD_EXAMPLES=OFF',
  ]);
  run('cmake', ['--build', build, '-j2']);
  run('cmake', ['--install', build, '--prefix', path.join(out, 'cpp')]);
  made.push(...files(path.join(out, 'cpp')).map((f) => `cpp/${f}`));
}

// Java: classes, jar, sources jar, javadoc jar, pom (what `mvn verify` attaches).
{
  const classes = path.join(tmp, 'java-classes');
  const main = path.join(kits, 'java/src/main/java');
  const sources = files(main)
    .filter((f) => f.endsWith('.java'))
    .map((f) => path.join(main, f));
  // The Servlet filter compiles against Debian's javax.servlet 4 API (provided by the container, never in the jar).
  const servletApi = '/usr/share/java/servlet-api.jar';
  run('javac', ['--release', '11', '-encoding', 'UTF-8', '-cp', servletApi, '-d', classes, ...sources]);
  mk('java');
  const name = `game-platform-kit-${VERSION}`;
  fs.copyFileSync(path.join(kits, 'LICENSE'), path.join(classes, 'LICENSE'));
  run('jar', ['--create', '--file', path.join(out, 'java', `${name}.jar`), '-C', classes, '.']);
  run('jar', ['--create', '--file', path.join(out, 'java', `${name}-sources.jar`), '-C', main, '.']);
  const docs = path.join(tmp, 'javadoc');
  run('javadoc', [
    '-quiet',
    '-Xdoclint:none',
    '-encoding',
    'UTF-8',
    '-d',
    docs,
    '-sourcepath',
    main,
    'com.gameplatform.kit',
  ]);
  run('jar', ['--create', '--file', path.join(out, 'java', `${name}-javadoc.jar`), '-C', docs, '.']);
  fs.copyFileSync(path.join(kits, 'java/pom.xml'), path.join(out, 'java', `${name}.pom`));
  made.push(...files(path.join(out, 'java')).map((f) => `java/${f}`));
}

// C#: the library assembly (netstandard2.0 API surface; Mono builds it here).
{
  mk('csharp');
  const src = files(path.join(kits, 'csharp/src'))
    .filter((f) => f.endsWith('.cs'))
    .map((f) => path.join(kits, 'csharp/src', f));
  run('mcs', [
    '-nologo',
    '-target:library',
    `-out:${path.join(out, 'csharp/GamePlatform.Kit.dll')}`,
    '-r:System.Numerics.dll',
    ...src,
  ]);
  fs.copyFileSync(path.join(kits, 'csharp/GamePlatform.Kit.csproj'), path.join(out, 'csharp/GamePlatform.Kit.csproj'));
  made.push(...files(path.join(out, 'csharp')).map((f) => `csharp/${f}`));
}

fs.rmSync(tmp, { recursive: true, force: true });
console.log(`built into ${out}:`);
for (const f of made) console.log(`  ${f}`);
