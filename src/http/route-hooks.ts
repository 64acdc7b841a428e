// Hooks added to one route as it is registered (from an onRoute hook): requests to other
// routes never run them, where a global hook would run on every request only to return.
import type { RouteOptions } from 'fastify';

type RouteHookName = 'preValidation' | 'preHandler' | 'onSend' | 'onResponse';

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
