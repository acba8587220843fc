import { useHydrated } from "@/components/ui/use-hydrated";
import type { CardProblem } from "./card-decline";

/** What the decline's notice (card-problem.tsx, a chunk of its own) is given. */
export type CardProblemNoticeProps = { problem: CardProblem; onTryAgain: () => void };

/** Whether the card form waits under a problem: only once the page's code runs (CardProblemNotice). */
export function useFormWaitsForChoice(problem: CardProblem | null): boolean {
  return useHydrated() && problem !== null;
}
