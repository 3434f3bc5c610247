// The builtin as require() gives it: see VIA_REQUIRE in ../easel-function.ts.
module.exports = process.getBuiltinModule('node:fs');
