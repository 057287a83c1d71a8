import type { FastifyInstance, RouteOptions } from 'fastify';

export interface CatalogRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
  /** Who may call it (public, agency-level, service-wide): the headers it reads follow from it. */
  config: { public?: boolean; agencyLevel?: boolean; serviceWide?: boolean };
  pattern: RegExp;
}

/**
 * Every route as it is registered: the OpenAPI document is generated from it, and the not-found
 * handler uses it to tell a wrong method from an unknown path.
 */
export class RouteCatalog {
  readonly routes: CatalogRoute[] = [];

  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (r) => {
      const methods = Array.isArray(r.method) ? r.method : [r.method];
      for (const method of methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        const pattern = new RegExp(`^${r.url.replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')}$`);
        this.routes.push({ method, url: r.url, schema: r.schema, config: (r.config ?? {}) as CatalogRoute['config'], pattern });
      }
    });
  }

  methodsFor(path: string): string[] {
    return [...new Set(this.routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
  }
}
