import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML and while it hydrates, true once the page's code runs (and at once in a component
 * first mounted after that): for a control the server renders in a plain form that the browser can post by
 * itself, and the code replaces with a richer one (the bank picker).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
