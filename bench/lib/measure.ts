/** Small timing helpers shared by the benchmarks. */

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Interleaved so that drift on a shared machine hits the contenders alike; returns median ms. */
export async function interleaved<K extends string>(contenders: Record<K, () => Promise<unknown>>, rounds: number): Promise<Record<K, number>> {
  const names = Object.keys(contenders) as K[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (const name of names) await contenders[name]();
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const started = performance.now();
      await contenders[name]();
      times[name].push(performance.now() - started);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(times[name])])) as Record<K, number>;
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
export const ms = (value: number) => `${value.toFixed(0)} ms`;
