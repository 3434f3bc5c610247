/** The command line of a build script the synth runs (`node infra/assets/<script>.ts <folder> …`). */

/** The arguments `usage` names (`<folder>`, …), each a non-empty string; else the usage on stderr and exit code 2. */
export function scriptArguments(usage: string): string[] {
  const wanted = usage.match(/<[^>]+>/g)?.length ?? 0;
  const given = process.argv.slice(2);
  if (given.length < wanted || given.slice(0, wanted).some((argument) => !argument)) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  return given;
}
