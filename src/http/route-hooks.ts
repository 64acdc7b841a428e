// Hooks added to one route as it is registered (from an onRoute hook), so that requests to
// other routes never run them: a route's own hooks cost nothing anywhere else, where a global
// hook runs, and returns at once, on every request.
import type { RouteOptions } from 'fastify';

type RouteHookName = 'preValidation' | 'onResponse';

function hooksOf(route: RouteOptions, name: RouteHookName): unknown[] {
  const existing: unknown = route[name];
  return existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
}

/** Runs `hook` before the route's own hooks of that name. */
export function prependRouteHook<N extends RouteHookName>(route: RouteOptions, name: N, hook: NonNullable<RouteOptions[N]>): void {
  route[name] = [hook, ...hooksOf(route, name)] as RouteOptions[N];
}

/** Runs `hook` after the route's own hooks of that name. */
export function appendRouteHook<N extends RouteHookName>(route: RouteOptions, name: N, hook: NonNullable<RouteOptions[N]>): void {
  route[name] = [...hooksOf(route, name), hook] as RouteOptions[N];
}
