/** Types of sdk/inline/paygate-inline.mjs (also served at /v1/inline.mjs). */
export declare const VERSION: string;

export type PaygateEvent = {
  /** The transaction's reference (null only in an onError the checkout never loaded for). */
  reference: string | null;
  /** The transaction's status as the checkout last reported it. */
  status: string | null;
  channel?: string;
};

export type PaygateError = PaygateEvent & {
  code: "payment_failed" | "load_failed" | string;
  message: string;
};

export type PaygateOptions = {
  /** The Paygate service's address; default: where this script was loaded from. */
  baseUrl?: string;
  /** The dialog's and the frame's accessible name (default "Checkout"). */
  label?: string;
  /** Milliseconds before onError({code: "load_failed"}) when the checkout never loads (default 20000). */
  loadTimeout?: number;
  onLoad?: (event: PaygateEvent) => void;
  /** A transfer, bank or USSD payment is under way: the webhook and verify tell the outcome if the customer leaves. */
  onPending?: (event: PaygateEvent) => void;
  /** Paid: verify the reference on your server before fulfilling. */
  onSuccess?: (event: PaygateEvent) => void;
  /** The customer cancelled the payment (the transaction is abandoned). */
  onCancel?: (event: PaygateEvent) => void;
  onError?: (event: PaygateError) => void;
  /** The modal closed (close button, Escape, the checkout's own "return" button, or handle.close()). */
  onClose?: (event: PaygateEvent) => void;
};

export type PaygateHandle = { close: () => void };

export declare function open(accessCode: string, options?: PaygateOptions): PaygateHandle;
