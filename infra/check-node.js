// Fails fast when npm scripts run on the machine's Node instead of the project's own
// (e.g. after `npm ci --ignore-scripts`, the `node` package installs no binary).
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `Easel needs Node >= 24 but is running on ${process.version}. Run \`npm ci\` (without --ignore-scripts) so that node_modules/.bin/node is installed.`,
  );
  process.exit(1);
}
