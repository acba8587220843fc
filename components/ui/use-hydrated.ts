import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML and while it hydrates, true once the page's code runs. A form's submit button
 * stays disabled until then: pressed earlier, the browser would submit the form itself (a reload that loses
 * everything typed, since the card fields have no names), not the page's handler.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
