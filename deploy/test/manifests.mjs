// The Kubernetes manifests' checks of the deploy test (also on its own: node deploy/test/manifests.mjs; no cluster,
// no network). Each overlay under deploy/kubernetes/overlays is rendered as `kubectl kustomize` renders it (the
// subset of kustomize the manifests use: resources, namespace, images and JSON 6902 patches; anything else is refused
// here rather than skipped), every object is validated against the Kubernetes schemas of the npm package
// kubernetes-models, and the rules of docs/deploy.md are checked on it: probes, resources, a non-root read-only
// security context, secrets by reference, the migrations before serving, /metrics inside the cluster only, a
// PodDisruptionBudget and an autoscaler that match the pods. Where kubectl is on the PATH its rendering must equal ours.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const k8s = path.join(root, 'deploy/kubernetes');
const SECRETS = ['MASTER_KEY', 'ADMIN_TOKEN', 'DATABASE_URL', 'REDIS_URL', 'METRICS_TOKEN'];

class ManifestError extends Error {}
function check(condition, message) {
  if (!condition) throw new ManifestError(message);
}

// ---------- rendering ----------

const KNOWN = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'patches']);

function readDocs(file) {
  return YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((d) => {
      check(d.errors.length === 0, `${file}: ${d.errors.map((e) => e.message).join('; ')}`);
      return d.toJS({ maxAliasCount: 100 });
    })
    .filter((o) => o !== null)
    .map((o) => JSON.parse(JSON.stringify(o))); // aliases to copies: a patch of one place changes that place only
}

export function render(dir) {
  const file = path.join(dir, 'kustomization.yaml');
  const k = readDocs(file)[0];
  for (const key of Object.keys(k)) check(KNOWN.has(key), `${file}: "${key}" is not rendered by this test`);
  let objects = [];
  for (const r of k.resources ?? []) {
    const p = path.join(dir, r);
    objects.push(...(fs.statSync(p).isDirectory() ? render(p) : readDocs(p)));
  }
  for (const patch of k.patches ?? []) {
    check(patch.target?.kind && patch.target?.name, `${file}: a patch needs target kind and name`);
    const ops = YAML.parse(patch.patch ?? fs.readFileSync(path.join(dir, patch.path), 'utf8'));
    check(Array.isArray(ops), `${file}: only JSON 6902 patches (a list of operations) are rendered by this test`);
    const targets = objects.filter((o) => o.kind === patch.target.kind && o.metadata?.name === patch.target.name);
    check(targets.length > 0, `${file}: the patch target ${patch.target.kind}/${patch.target.name} does not exist`);
    for (const t of targets) for (const op of ops) applyOp(t, op, file);
  }
  for (const image of k.images ?? [])
    for (const o of objects)
      for (const c of podContainers(o))
        if (c.image.split(':')[0] === image.name)
          c.image = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ''}`;
  if (k.namespace) objects = objects.map((o) => ({ ...o, metadata: { ...o.metadata, namespace: k.namespace } }));
  return objects;
}

function applyOp(target, op, file) {
  const parts = op.path
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = parts.pop();
  let parent = target;
  for (const p of parts) {
    parent = parent?.[Array.isArray(parent) ? Number(p) : p];
    check(parent !== undefined && parent !== null, `${file}: ${op.op} ${op.path}: no such path`);
  }
  const index = Array.isArray(parent) ? (last === '-' ? parent.length : Number(last)) : last;
  switch (op.op) {
    case 'add':
      if (Array.isArray(parent)) parent.splice(index, 0, op.value);
      else parent[index] = op.value;
      break;
    case 'replace':
      check(index in parent, `${file}: replace ${op.path}: nothing there`);
      parent[index] = op.value;
      break;
    case 'remove':
      check(index in parent, `${file}: remove ${op.path}: nothing there`);
      if (Array.isArray(parent)) parent.splice(index, 1);
      else delete parent[index];
      break;
    default:
      check(false, `${file}: the patch operation "${op.op}" is not rendered by this test`);
  }
}

function podSpec(o) {
  return o.kind === 'Deployment' || o.kind === 'Job' ? o.spec.template.spec : undefined;
}
function podContainers(o) {
  const spec = podSpec(o);
  return spec ? [...(spec.initContainers ?? []), ...spec.containers] : [];
}

// ---------- the Kubernetes schemas ----------

async function validate(o, where) {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : [undefined, o.apiVersion];
  const module = await import(`kubernetes-models/${group ? `${group}/` : ''}${version}`).catch(() => ({}));
  const Model = module[o.kind];
  check(Model, `${where}: ${o.apiVersion} ${o.kind} is not a Kubernetes kind kubernetes-models knows`);
  try {
    new Model(o).validate();
  } catch (e) {
    throw new ManifestError(`${where}: ${o.kind}/${o.metadata?.name} does not match the schema: ${e.message}`);
  }
}

// ---------- the rules of docs/deploy.md ----------

const matches = (selector, labels) => Object.entries(selector).every(([k, v]) => labels?.[k] === v);

function checkRules(objects, where) {
  const one = (kind) => {
    const found = objects.filter((o) => o.kind === kind);
    check(found.length === 1, `${where}: expected one ${kind}, found ${found.length}`);
    return found[0];
  };
  const deployment = one('Deployment');
  const config = one('ConfigMap');
  const hpa = one('HorizontalPodAutoscaler');
  const pdb = one('PodDisruptionBudget');
  const policy = one('NetworkPolicy');
  const spec = deployment.spec.template.spec;
  const labels = deployment.spec.template.metadata.labels;
  check(matches(deployment.spec.selector.matchLabels, labels), `${where}: the Deployment's selector misses its pods`);
  check(spec.securityContext?.runAsNonRoot === true, `${where}: the pods may run as root`);
  check(spec.automountServiceAccountToken === false, `${where}: a service account token is mounted`);
  check(spec.terminationGracePeriodSeconds >= 20, `${where}: less than 20 s to drain`);
  for (const c of podContainers(deployment)) {
    const sc = c.securityContext ?? {};
    check(
      sc.readOnlyRootFilesystem === true &&
        sc.allowPrivilegeEscalation === false &&
        sc.capabilities?.drop?.includes('ALL'),
      `${where}: container ${c.name} is not read-only, unprivileged and without capabilities`,
    );
    check(
      c.resources?.requests?.cpu && c.resources?.requests?.memory && c.resources?.limits?.memory,
      `${where}: container ${c.name} has no resources`,
    );
    check(
      !/^game-platform(:|$)/.test(c.image) && c.image.includes(':'),
      `${where}: container ${c.name} image ${c.image} is not set by the overlay`,
    );
    for (const e of c.env ?? [])
      if (SECRETS.includes(e.name))
        check(e.valueFrom?.secretKeyRef, `${where}: ${c.name}'s ${e.name} is not a Secret reference`);
    check(
      (c.envFrom ?? []).every((f) => f.configMapRef?.name === config.metadata.name || f.secretRef),
      `${where}: container ${c.name} reads a ConfigMap that is not ${config.metadata.name}`,
    );
    for (const m of c.volumeMounts ?? [])
      check(
        spec.volumes.some((v) => v.name === m.name),
        `${where}: ${c.name} mounts the unknown volume ${m.name}`,
      );
  }
  for (const s of SECRETS) check(!(s in config.data), `${where}: the secret ${s} is in the ConfigMap`);
  check(
    spec.initContainers?.[0]?.args?.[0] === 'migrate',
    `${where}: the migrations do not run (an init container running migrate) before the server starts`,
  );
  const server = spec.containers.find((c) => c.name === 'server');
  check(server?.args?.[0] === 'serve', `${where}: no server container running serve`);
  const port = (name) => server.ports.find((p) => p.name === name)?.containerPort;
  check(String(port('http')) === config.data.PORT, `${where}: the http port is not PORT`);
  check(String(port('metrics')) === config.data.METRICS_PORT, `${where}: the metrics port is not METRICS_PORT`);
  check(server.readinessProbe?.httpGet?.path === '/readyz', `${where}: readiness is not /readyz`);
  check(server.livenessProbe?.httpGet?.path === '/healthz', `${where}: liveness is not /healthz`);
  // /metrics: inside the cluster only.
  for (const svc of objects.filter((o) => o.kind === 'Service')) {
    check(['ClusterIP', undefined].includes(svc.spec.type), `${where}: Service ${svc.metadata.name} is not ClusterIP`);
    const exposesMetrics = svc.spec.ports.some((p) => p.targetPort === 'metrics' || p.targetPort === port('metrics'));
    const exposesHttp = svc.spec.ports.some((p) => p.targetPort === 'http' || p.targetPort === port('http'));
    check(!(exposesMetrics && exposesHttp), `${where}: Service ${svc.metadata.name} mixes the API and /metrics`);
    check(matches(svc.spec.selector, labels), `${where}: Service ${svc.metadata.name} selects no pod`);
  }
  for (const ingress of objects.filter((o) => o.kind === 'Ingress'))
    check(!JSON.stringify(ingress).includes('metrics'), `${where}: an Ingress exposes /metrics`);
  check(matches(policy.spec.podSelector.matchLabels, labels), `${where}: the NetworkPolicy misses the pods`);
  const metricsRules = policy.spec.ingress.filter((r) => r.ports?.some((p) => p.port === 'metrics'));
  check(
    metricsRules.length > 0 && metricsRules.every((r) => r.from?.length > 0),
    `${where}: the NetworkPolicy lets anyone reach the metrics port`,
  );
  check(
    policy.spec.ingress.every((r) => r.ports?.length > 0 && r.ports.every((p) => ['http', 'metrics'].includes(p.port))),
    `${where}: the NetworkPolicy opens more than the two ports`,
  );
  check(
    hpa.spec.scaleTargetRef.kind === 'Deployment' && hpa.spec.scaleTargetRef.name === deployment.metadata.name,
    `${where}: the autoscaler scales something else`,
  );
  check(hpa.spec.minReplicas >= 2 && hpa.spec.maxReplicas >= hpa.spec.minReplicas, `${where}: autoscaler bounds`);
  check(matches(pdb.spec.selector.matchLabels, labels), `${where}: the PodDisruptionBudget misses the pods`);
  check(pdb.spec.minAvailable < hpa.spec.minReplicas, `${where}: the PodDisruptionBudget blocks every drain`);
  const namespaces = new Set(objects.map((o) => o.metadata.namespace));
  check(namespaces.size === 1 && !namespaces.has(undefined), `${where}: not all in one namespace`);
}

// ---------- kubectl, where there is one ----------

function kubectlRendering(dir) {
  try {
    const out = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return YAML.parseAllDocuments(out).map((d) => d.toJS());
  } catch (e) {
    return e.code === 'ENOENT' ? undefined : { error: e.stderr?.toString() ?? e.message };
  }
}
const key = (o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`;
/** Where two renderings first differ, for the message. */
function difference(a, b, at = '') {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return `${at || '/'}: ${JSON.stringify(a)} here, ${JSON.stringify(b)} from kubectl`;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = difference(a[k], b[k], `${at}/${k}`);
    if (d) return d;
  }
  return `${at}: differ`;
}

// ---------- main ----------

const t0 = Date.now();
const overlays = fs.readdirSync(path.join(k8s, 'overlays')).sort();
check(overlays.length > 0, 'no overlays');
let count = 0;
for (const overlay of overlays) {
  const dir = path.join(k8s, 'overlays', overlay);
  const where = `overlays/${overlay}`;
  const objects = render(dir);
  for (const o of objects) await validate(o, where);
  checkRules(objects, where);
  count += objects.length;
  const theirs = kubectlRendering(dir);
  let cross = 'kubectl not installed: no cross-check';
  if (theirs?.error) throw new ManifestError(`${where}: kubectl kustomize failed: ${theirs.error}`);
  if (theirs) {
    const ours = new Map(objects.map((o) => [key(o), o]));
    check(theirs.length === objects.length, `${where}: kubectl renders ${theirs.length} objects, we ${objects.length}`);
    for (const o of theirs) {
      const d = difference(ours.get(key(o)), o);
      check(!d, `${where}: kubectl renders ${key(o)} differently at ${d}`);
    }
    cross = 'the same as kubectl kustomize';
  }
  console.log(
    `  [manifests] ${where}: ${objects.length} objects valid (${objects.map((o) => o.kind).join(', ')}); ${cross}`,
  );
}
console.log(`  manifests: ${count} objects in ${overlays.length} overlays valid in ${Date.now() - t0} ms`);
