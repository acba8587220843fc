"use client";

import { useEffect, useRef } from "react";
import { StepHeading } from "@/components/ui/step-heading";
import { newIdempotencyKey } from "./api";
import { useCheckout } from "./context";
import { Spinner } from "./spinner";

/** How often the page asks again while the card's network decides. */
const EVERY_MS = 3_000;

/**
 * A card payment the network has taken but not decided (`processing`): the page says so and asks where it
 * stands every few seconds (charge/card/check) until it is decided; the answer goes to `onDone`. Paying again
 * is not offered meanwhile: the service refuses a second card payment while one is at the network.
 */
export function ProcessingStep<R extends { status: string }>({
  check,
  onDone,
}: {
  check: (key: { idempotencyKey: string }) => Promise<R>;
  onDone: (result: R) => void;
}) {
  const { t } = useCheckout();
  const p = t.steps.processing;
  const done = useRef(onDone);
  done.current = onDone;
  const ask = useRef(check);
  ask.current = check;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const result = await ask.current({ idempotencyKey: newIdempotencyKey() });
        if (stopped) return;
        if (result.status !== "processing") return done.current(result);
      } catch {
        // A network blip: asked again on the next tick.
      }
      if (!stopped) timer = setTimeout(tick, EVERY_MS);
    };
    timer = setTimeout(tick, EVERY_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  return (
    <div key="processing" data-step="processing">
      <StepHeading>{p.title}</StepHeading>
      <div
        role="status"
        className="mt-4 flex items-center gap-3 rounded-lg bg-slate-50 p-4 text-sm text-slate-800 ring-1 ring-slate-200"
      >
        <Spinner className="size-5" />
        <p>{p.body}</p>
      </div>
    </div>
  );
}
