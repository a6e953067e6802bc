// npm's own checks of a package's name and version, for tests/test_package_checks.py:
// the names and versions are a JSON object ({names, versions}) in the file
// RULEBOOK_JS_CASES names; printed is one JSON object of two arrays, in order:
// whether npm takes each name for a new package (validate-npm-package-name,
// as npm bundles it), and whether each version is one npm writes as it is
// (semver.valid gives it back unchanged: no leading v, no build metadata).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const validate = require("validate-npm-package-name");
const semver = require("semver");

const spec = JSON.parse(readFileSync(process.env.RULEBOOK_JS_CASES, "utf8"));
console.log(
  JSON.stringify({
    names: spec.names.map((name) => validate(name).validForNewPackages),
    versions: spec.versions.map((version) => semver.valid(version) === version),
  }),
);
