"use client";

import { useEffect, useState } from "react";

/**
 * Seconds left until `deadline` (a local-clock timestamp), ticking once a second. It is derived from the
 * clock on every tick, never counted down, so it stays right when the tab was in the background or the
 * device slept; waking (visibilitychange) re-reads it at once.
 */
export function useCountdown(deadline: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null) return;
    const tick = () => setNow(Date.now());
    tick();
    const timer = setInterval(tick, 1000);
    document.addEventListener("visibilitychange", tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [deadline]);
  return deadline === null ? null : Math.max(0, Math.ceil((deadline - now) / 1000));
}
