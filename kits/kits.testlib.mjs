// How kits/kits.test.mjs builds, tests and starts each kit: only Debian toolchains, nothing fetched.
import path from 'node:path';

const kitsDir = path.dirname(new URL(import.meta.url).pathname);
const PYTHON = '/usr/bin/python3';
/** Debian's javax.servlet 4 API (libservlet-api-java) and embedded Jetty 9.4 (libjetty9-java), for the Servlet filter. */
export const SERVLET_API = '/usr/share/java/servlet-api.jar';
const JETTY = ['server', 'servlet', 'http', 'io', 'util', 'security'].map((j) => `/usr/share/java/jetty9-${j}.jar`);
const JAVA_CP = [SERVLET_API, ...JETTY].join(':');

/**
 * name, dir, the Debian packages of its toolchain, commands that prove the toolchain is there, the steps that
 * build it and run its tests (every vector) into a scratch build dir, and the command that starts its example server
 * (it reads PLATFORM_KEYS_DIR and PORT, and prints `listening on http://127.0.0.1:<port>`).
 */
export const KITS = [
  {
    name: 'python',
    dir: path.join(kitsDir, 'python'),
    debian: 'python3 python3-cryptography',
    toolchain: [[PYTHON, '-c', 'import cryptography']],
    steps: () => [[PYTHON, '-m', 'unittest', 'discover', '-s', 'tests']],
    server: () => [PYTHON, 'examples/game_server.py'],
  },
  {
    // VerifyingWSGIMiddleware (what a Flask or Django app mounts) in the standard library's wsgiref server.
    name: 'python-wsgi',
    dir: path.join(kitsDir, 'python'),
    debian: 'python3 python3-cryptography',
    toolchain: [[PYTHON, '-c', 'import cryptography, wsgiref']],
    steps: () => [],
    server: () => [PYTHON, 'examples/wsgi_app.py'],
  },
  {
    name: 'go',
    dir: path.join(kitsDir, 'go'),
    debian: 'golang-go',
    toolchain: [['go', 'version']],
    // GOPROXY=off: the standard library only, nothing is fetched.
    steps: (build) => [
      ['env', 'GOPROXY=off', 'go', 'vet', './...'],
      ['env', 'GOPROXY=off', 'go', 'test', '-count=1', './...'],
      ['env', 'GOPROXY=off', 'go', 'build', '-o', path.join(build, 'gameserver'), './examples/gameserver'],
    ],
    server: (build) => [path.join(build, 'gameserver')],
  },
  {
    name: 'java',
    dir: path.join(kitsDir, 'java'),
    debian: 'default-jdk-headless libservlet-api-java libjetty9-java',
    toolchain: [
      ['javac', '-version'],
      ['java', '-version'],
      ['test', '-f', SERVLET_API],
      ...JETTY.map((j) => ['test', '-f', j]),
    ],
    // javac alone (the pom.xml runs the same tests through Surefire: no Maven Central here). --release 11: the minimum.
    steps: (build) => [
      // The JUnit 5 tests with the labelled stub of the JUnit API (src/test-stub) and its runner: no Maven here.
      [
        'sh',
        '-c',
        `javac --release 11 -encoding UTF-8 -cp '${JAVA_CP}' -d '${build}' $(find src examples -name '*.java')`,
      ],
      ['java', '-cp', build, 'gamekit.teststub.Runner', 'com.gameplatform.kit.VectorsTest'],
    ],
    server: (build) => ['java', '-cp', build, 'GameServer'],
  },
  {
    // The Servlet filter in a real container: embedded Jetty runs examples/servlet/ServletGameServer.
    name: 'java-servlet',
    dir: path.join(kitsDir, 'java'),
    debian: 'default-jdk-headless libservlet-api-java libjetty9-java',
    toolchain: [['javac', '-version'], ['test', '-f', SERVLET_API], ...JETTY.map((j) => ['test', '-f', j])],
    steps: (build) => [
      [
        'sh',
        '-c',
        `javac --release 11 -encoding UTF-8 -cp '${JAVA_CP}' -d '${build}' $(find src/main examples -name '*.java')`,
      ],
    ],
    server: (build) => ['java', '-cp', `${build}:${JAVA_CP}`, 'ServletGameServer'],
  },
  {
    name: 'cpp',
    dir: path.join(kitsDir, 'cpp'),
    debian: 'g++ cmake libssl-dev',
    toolchain: [
      ['cmake', '--version'],
      ['g++', '--version'],
      ['test', '-f', '/usr/include/openssl/evp.h'],
    ],
    steps: (build) => [
      ['cmake', '-S', '.', '-B', build, '-DCMAKE_BUILD_TYPE=Release'],
      ['cmake', '--build', build, '-j2'],
      ['ctest', '--test-dir', build, '--output-on-failure'],
    ],
    server: (build) => [path.join(build, 'game_server')],
  },
  {
    name: 'csharp',
    dir: path.join(kitsDir, 'csharp'),
    debian: 'mono-mcs',
    toolchain: [
      ['mcs', '--version'],
      ['mono', '--version'],
    ],
    // Mono's compiler (the .csproj is for users with the .NET SDK: no NuGet here).
    steps: (build) => [
      ['sh', '-c', `mcs -nologo -out:'${build}/VectorsTest.exe' -r:System.Numerics.dll src/*.cs tests/VectorsTest.cs`],
      ['mono', path.join(build, 'VectorsTest.exe')],
      // The ASP.NET Core middleware against the labelled stub of ASP.NET Core's API (no .NET SDK or NuGet here).
      [
        'sh',
        '-c',
        `mcs -nologo -out:'${build}/AspNetCoreTest.exe' -r:System.Numerics.dll src/*.cs adapters/stubs/*.cs adapters/AspNetCore/*.cs tests/AspNetCoreMiddlewareTest.cs`,
      ],
      ['mono', path.join(build, 'AspNetCoreTest.exe')],
      ['sh', '-c', `mcs -nologo -out:'${build}/GameServer.exe' -r:System.Numerics.dll src/*.cs examples/GameServer.cs`],
    ],
    server: (build) => ['mono', path.join(build, 'GameServer.exe')],
  },
];

/**
 * A consumer project per language (kits/consumers/<name>), built and run against the packages that
 * kits/build-all.mjs put in `out`, from a scratch copy `work`: each prints `consumption <sign>` and `decimals <sign>`.
 */
export const CONSUMERS = [
  {
    name: 'python',
    steps: (out, work) => [
      ['sh', '-c', `${PYTHON} -m pip install -q --no-deps --no-index --target '${work}/site' '${out}'/python/*.whl`],
      ['env', `PYTHONPATH=${work}/site`, PYTHON, 'consumer.py'],
    ],
  },
  {
    name: 'go',
    // The module by its published path, from a file GOPROXY holding the built module zip: no replace, no source.
    steps: (out, work) => {
      const env = [
        'env',
        `GOPROXY=file://${out}/go/proxy`,
        'GOSUMDB=off',
        'GOFLAGS=-mod=mod -modcacherw',
        `GOPATH=${work}/gopath`,
      ];
      return [
        [...env, 'go', 'vet', './...'],
        [...env, 'go', 'test', '-count=1', './...'],
        [...env, 'go', 'run', '.'],
      ];
    },
  },
  {
    name: 'cpp',
    steps: (out, work) => [
      ['cmake', '-S', '.', '-B', `${work}/build`, `-DCMAKE_PREFIX_PATH=${out}/cpp`, '-DCMAKE_BUILD_TYPE=Release'],
      ['cmake', '--build', `${work}/build`],
      [`${work}/build/consumer`],
    ],
  },
  {
    name: 'java',
    steps: (out, work) => [
      ['sh', '-c', `javac -d '${work}/classes' -cp '${out}'/java/game-platform-kit-*[0-9].jar Consumer.java`],
      ['sh', '-c', `java -cp '${work}/classes':$(ls '${out}'/java/game-platform-kit-*[0-9].jar) Consumer`],
    ],
  },
  {
    name: 'csharp',
    steps: (out, work) => [
      ['cp', `${out}/csharp/GamePlatform.Kit.dll`, work],
      ['mcs', '-nologo', `-out:${work}/Consumer.exe`, `-r:${work}/GamePlatform.Kit.dll`, 'Consumer.cs'],
      ['mono', `${work}/Consumer.exe`],
    ],
  },
];
