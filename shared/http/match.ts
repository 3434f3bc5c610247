import type { CorsPolicy, Endpoint, HttpMethod } from '#shared/route-types.ts';

interface CompiledPath<R> {
  template: string;
  pattern: RegExp;
  names: string[];
  rows: R[];
}

function compile(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split('/')
    .map((segment) => {
      const param = /^\{([A-Za-z0-9_]+)\}$/.exec(segment);
      if (param) {
        names.push(param[1]!);
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

export type PathMatch<R> =
  | { kind: 'route'; route: R; params: Record<string, string> }
  | { kind: 'method'; allow: (HttpMethod | 'HEAD')[]; cors: CorsPolicy; template: string }
  | { kind: 'none' };

/** Matches as API Gateway does: literal paths before templated ones, which serve a method the literal lacks; HEAD is the path's GET row. */
export function routeMatcher<R extends Endpoint>(routes: readonly R[]): (method: string, path: string) => PathMatch<R> {
  const byTemplate = new Map<string, CompiledPath<R>>();
  for (const row of routes) {
    let entry = byTemplate.get(row.path);
    if (!entry) {
      entry = { template: row.path, ...compile(row.path), rows: [] };
      byTemplate.set(row.path, entry);
    }
    entry.rows.push(row);
  }
  const paths = [...byTemplate.values()].sort((a, b) => a.names.length - b.names.length);

  return (method, path) => {
    const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
    const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const matching = paths.map((entry) => ({ entry, found: entry.pattern.exec(normalized) })).filter((candidate) => candidate.found);
    if (matching.length === 0) return { kind: 'none' };
    for (const { entry, found } of matching) {
      const row = entry.rows.find((candidate) => candidate.method === wanted);
      if (!row) continue;
      const params: Record<string, string> = {};
      entry.names.forEach((name, index) => {
        params[name] = safeDecode(found![index + 1]!);
      });
      return { kind: 'route', route: row, params };
    }
    const rows = matching.flatMap(({ entry }) => entry.rows);
    const allow: (HttpMethod | 'HEAD')[] = [...new Set(rows.map((candidate) => candidate.method))];
    if (allow.includes('GET')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
    // One CORS policy per path; editor wins when any of its routes needs credentials.
    const cors: CorsPolicy = rows.some((candidate) => candidate.cors === 'editor') ? 'editor' : 'public';
    return { kind: 'method', allow, cors, template: matching[0]!.entry.template };
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
