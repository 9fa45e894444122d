// Validates Kubernetes objects against their schemas: built-in kinds with kubernetes-models,
// Prometheus Operator monitors with @kubernetes-models/prometheus-operator, StreamJobs with the
// CRD's openAPIV3Schema (unknown fields rejected, as kubectl's strict field validation does).
// Usage: node validate.js <objects.json> <streamjobs CRD as JSON>
// objects.json: [{"source": "...", "object": {...}}, ...]. Exits 1 listing every invalid object.
'use strict';
const fs = require('fs');
const Ajv = require('ajv');

const MODULES = {
  'v1': 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'rbac.authorization.k8s.io/v1': 'kubernetes-models/rbac.authorization.k8s.io/v1',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'apiextensions.k8s.io/v1': 'kubernetes-models/apiextensions.k8s.io/v1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};

function modelClass(object) {
  const module = MODULES[object.apiVersion];
  const model = module && require(module)[object.kind];
  if (!model) {
    throw new Error(`no schema for apiVersion ${object.apiVersion} kind ${object.kind}`);
  }
  return model;
}

// Objects without additionalProperties reject unknown fields, except the root (apiVersion,
// kind, metadata) and objects that keep unknown fields on purpose.
function strict(schema, root) {
  if (schema.properties && schema.additionalProperties === undefined && !root
      && !schema['x-kubernetes-preserve-unknown-fields']) {
    schema.additionalProperties = false;
  }
  Object.values(schema.properties || {}).forEach((s) => strict(s, false));
  if (schema.items) strict(schema.items, false);
  if (typeof schema.additionalProperties === 'object') strict(schema.additionalProperties, false);
  return schema;
}

function streamJobValidator(crd) {
  const version = crd.spec.versions.find((v) => v.served && v.storage) || crd.spec.versions[0];
  const schema = strict(JSON.parse(JSON.stringify(version.schema.openAPIV3Schema)), true);
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  return (object) => {
    if (!validate(object)) {
      throw new Error(validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`
        + (e.params && e.params.additionalProperty ? ` '${e.params.additionalProperty}'` : '')).join('; '));
    }
  };
}

function check(entry, validateStreamJob) {
  const object = entry.object;
  if (object.apiVersion === 'flowscale.dev/v1alpha1' && object.kind === 'StreamJob') {
    validateStreamJob(object);
  } else {
    new (modelClass(object))(object).validate();
  }
}

function main([objectsFile, crdFile]) {
  const entries = JSON.parse(fs.readFileSync(objectsFile, 'utf8'));
  const validateStreamJob = streamJobValidator(JSON.parse(fs.readFileSync(crdFile, 'utf8')));
  const failures = [];
  for (const entry of entries) {
    const o = entry.object || {};
    try {
      check(entry, validateStreamJob);
    } catch (e) {
      failures.push(`${entry.source}: ${o.kind}/${(o.metadata || {}).name}: ${e.message}`);
    }
  }
  failures.forEach((f) => console.error(`INVALID ${f}`));
  console.log(`validated ${entries.length} objects, ${failures.length} invalid`);
  process.exit(failures.length ? 1 : 0);
}

main(process.argv.slice(2));
