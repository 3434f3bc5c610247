/** What the options of a signed-in capture cost through the handler, each against the same page captured without it. */
import { ms, percentile } from './support/report.ts';
import type { BenchTable } from './support/report.ts';
import { withBenchRuntime } from './support/local-runtime.ts';
import { apiEvent, lambdaContext } from '../test/support/event.ts';
import { PASS, startSignedInPages } from '../test/support/signed-in-pages.ts';

const ROUNDS = 15;

export async function bench(): Promise<BenchTable[]> {
  const pages = await startSignedInPages();
  return withBenchRuntime(pages, async () => {
    const { handler } = await import('#functions/screenshot/capture-page.ts');
    let client = 0;
    // A fresh source address per call: the bench measures capture, not the rate limit.
    const call = async (body: Record<string, unknown>) => {
      client += 1;
      const started = performance.now();
      const result = await handler(
        apiEvent({ method: 'POST', path: '/api/screenshot', body, sourceIp: `198.18.${client >> 8}.${client & 255}` }),
        lambdaContext(),
      );
      if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}: ${result.body}`);
      return performance.now() - started;
    };
    const cases = [
      { name: 'headers (2 sub-requests to the origin, 3 elsewhere)', page: '/header', option: { headers: { [PASS.header[0]]: PASS.header[1] } } },
      { name: 'cookies', page: '/cookie', option: { cookies: [{ name: PASS.cookie[0], value: PASS.cookie[1] }] } },
      { name: 'userAgent', page: '/agent', option: { userAgent: PASS.userAgent } },
      { name: 'css', page: '/blank', option: { css: 'body { background: rgb(0, 160, 0) } h1 { visibility: hidden }' } },
      { name: 'reducedMotion (3 animations finished)', page: '/motion', option: { reducedMotion: true } },
      { name: 'click (then settled)', page: '/click', option: { click: '#open' } },
    ];
    const rows: (string | number)[][] = [];
    for (const entry of cases) {
      const url = `${pages.origin}${entry.page}`;
      // Warm, then interleaved against drift; forceRefresh so the plain one is captured too.
      await call({ url, forceRefresh: true });
      await call({ url, forceRefresh: true, ...entry.option });
      const plain: number[] = [];
      const withOption: number[] = [];
      for (let i = 0; i < ROUNDS; i += 1) {
        plain.push(await call({ url, forceRefresh: true }));
        withOption.push(await call({ url, forceRefresh: true, ...entry.option }));
      }
      const ratio = percentile(withOption, 50) / percentile(plain, 50);
      rows.push([entry.name, ms(percentile(plain, 50)), ms(percentile(withOption, 50)), `${ratio.toFixed(2)}×`, '≤ 1.15×', ratio <= 1.15 ? 'met' : 'MISSED']);
    }
    return [
      {
        title: `Signed-in capture options through the handler, p50 of ${ROUNDS} interleaved, same page without the option`,
        columns: ['option', 'without (ms)', 'with (ms)', 'ratio', 'goal', 'result'],
        rows,
        notes: [
          'Without the option, each capture also writes the cache (forceRefresh); with headers or cookies it never does, which is part of what they cost or save.',
          'Absolute figures are of this machine (AMD EPYC, 2 cores) under whatever else runs; the ratio is the measure.',
        ],
      },
    ];
  });
}
