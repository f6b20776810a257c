/**
 * Which methods a path answers to, read from the Express router once the routes are mounted:
 * a known path with another method is 405 with `Allow` (not 404).
 */
interface RouteEntry {
  pattern: RegExp;
  methods: Set<string>;
}

interface ExpressLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

function compile(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return '[^/]+';
      if (segment.startsWith('{*') || segment.startsWith('*')) return '.*';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export class RouteTable {
  private constructor(private readonly entries: RouteEntry[]) {}

  static fromExpress(app: { router?: { stack?: ExpressLayer[] }; _router?: { stack?: ExpressLayer[] } }): RouteTable {
    const stack = app.router?.stack ?? app._router?.stack ?? [];
    const byPath = new Map<string, Set<string>>();
    for (const layer of stack) {
      if (!layer.route) continue;
      const methods = Object.keys(layer.route.methods)
        .filter((m) => layer.route!.methods[m] && m !== '_all')
        .map((m) => m.toUpperCase());
      // Middleware mounted for every method (request logging) is not a route of the API.
      if (layer.route.methods._all || methods.length > 8) continue;
      for (const path of Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]) {
        const set = byPath.get(path) ?? new Set<string>();
        methods.forEach((m) => set.add(m));
        byPath.set(path, set);
      }
    }
    return new RouteTable([...byPath].map(([path, methods]) => ({ pattern: compile(path), methods })));
  }

  /** The methods some route answers for this path (with HEAD where GET is), empty when none. */
  allowed(path: string): string[] {
    const out = new Set<string>();
    for (const e of this.entries) if (e.pattern.test(path)) e.methods.forEach((m) => out.add(m));
    if (out.has('GET')) out.add('HEAD');
    return [...out].sort();
  }
}
