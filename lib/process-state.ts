/**
 * One value per process, shared by every bundle of the app. Next compiles instrumentation and each route
 * into separate entries that may each get their own copy of a module, so module-level state (a cache, a
 * rate-limit bucket, a pending OTP) would silently split; anything that must be process-wide lives here.
 */
const store = globalThis as unknown as { __paygateState?: Map<string, unknown> };

export function processState<T>(key: string, init: () => T): T {
  store.__paygateState ??= new Map();
  if (!store.__paygateState.has(key)) store.__paygateState.set(key, init());
  return store.__paygateState.get(key) as T;
}
