/**
 * A rail said no, for good: nothing was done and asking again would get the same answer (a refund Paystack
 * refuses because the charge was already reversed, say). Callers settle what they asked for as failed with
 * `reason`, instead of asking again forever. Anything else a rail throws is taken as "try again later".
 */
export class RailRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = "RailRefusal";
  }
}
