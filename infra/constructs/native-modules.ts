/**
 * Native packages a function ships in node_modules. The bundling's `npm ci` would pick the synth
 * machine's platform binaries, so npm is told Lambda's, and the result is checked: npm silently
 * skips a platform package it cannot fetch.
 */
import { closeSync, existsSync, openSync, readSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CHROMIUM_PACK_FOLDER } from '#infra/assets/chromium.ts';
import { PACK_MANIFEST, PACKED_EXECUTABLE } from '#shared/services/capture/chromium-pack.ts';

export type LinuxCpu = 'x64' | 'arm64';

// ELF e_machine (offset 18, little-endian) of each CPU.
const ELF_MACHINE: Record<LinuxCpu, number> = { x64: 0x3e, arm64: 0xb7 };

/** Makes the bundling's `npm ci` install the optional packages of Lambda's platform. */
export function installEnvironment(cpu: LinuxCpu): Record<string, string> {
  return { npm_config_os: 'linux', npm_config_cpu: cpu, npm_config_libc: 'glibc' };
}

interface NativePackage {
  /** CPUs the package has binaries for (undefined: any). */
  cpus?: readonly LinuxCpu[];
  check(nodeModules: string, cpu: LinuxCpu): string[];
}

/** Whether `file` is an ELF binary for Linux on `cpu`, from its header alone. */
export function isElfFor(file: string, cpu: LinuxCpu): boolean {
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  return read === header.length && header.subarray(0, 4).toString('latin1') === '\x7fELF' && header.readUInt16LE(18) === ELF_MACHINE[cpu];
}

const NATIVE_PACKAGES: Record<string, NativePackage> = {
  sharp: {
    check(nodeModules, cpu) {
      const problems: string[] = [];
      // Named with the version: sharp-linux-x64-0.35.5.node.
      const lib = join(nodeModules, '@img', `sharp-linux-${cpu}`, 'lib');
      const binary = existsSync(lib) ? readdirSync(lib).find((name) => name.startsWith(`sharp-linux-${cpu}`) && name.endsWith('.node')) : undefined;
      if (!binary) problems.push(`no @img/sharp-linux-${cpu} (sharp's binary for Linux ${cpu})`);
      else if (!isElfFor(join(lib, binary), cpu)) problems.push(`@img/sharp-linux-${cpu}/lib/${binary} is not a Linux ${cpu} binary`);
      const libvips = join(nodeModules, '@img', `sharp-libvips-linux-${cpu}`, 'lib');
      if (!existsSync(libvips) || !readdirSync(libvips).some((name) => name.startsWith('libvips-cpp.so'))) {
        problems.push(`no @img/sharp-libvips-linux-${cpu} (libvips for Linux ${cpu})`);
      }
      return problems;
    },
  },
  // Published with an x64 Chromium only; the package itself declares no cpu, so npm installs it anywhere.
  // The function runs the zstd pack made from it (infra/assets/chromium.ts), beside node_modules.
  '@sparticuz/chromium': {
    cpus: ['x64'],
    check(nodeModules) {
      const pack = join(dirname(nodeModules), CHROMIUM_PACK_FOLDER);
      return [PACK_MANIFEST, `${PACKED_EXECUTABLE}.zst`].filter((file) => !existsSync(join(pack, file))).map((file) => `no ${CHROMIUM_PACK_FOLDER}/${file}`);
    },
  },
};

/** arm64 (cheaper per GB-second) unless a package ships no arm64 binary. */
export function cheapestCpu(nodeModules: readonly string[]): LinuxCpu {
  return unsupportedCpu(nodeModules, 'arm64') ? 'x64' : 'arm64';
}

/** Why `nodeModules` cannot run on `cpu`, if so. */
export function unsupportedCpu(nodeModules: readonly string[], cpu: LinuxCpu): string | undefined {
  const name = nodeModules.find((module) => NATIVE_PACKAGES[module]?.cpus?.includes(cpu) === false);
  return name && `${name} ships binaries for ${NATIVE_PACKAGES[name]!.cpus!.join(', ')} only, not ${cpu}: keep this function on x86_64.`;
}

/** What a bundled asset lacks for its native packages to load on Linux `cpu`. */
export function nativeProblems(assetDir: string, nodeModules: readonly string[], cpu: LinuxCpu): string[] {
  return nodeModules.flatMap((name) => NATIVE_PACKAGES[name]?.check(join(assetDir, 'node_modules'), cpu) ?? []);
}
