/**
 * The outside world, one interface per channel. Channels (lib/channels) talk to rails only through these;
 * test mode uses the sandbox rails (lib/rails/sandbox.ts), live mode the rails a deployment configures.
 * Inbound transfers come the other way: a rail reports them to `receiveInboundTransfer`
 * (lib/channels/receive-inbound-transfer.ts), which `/v1/sandbox/transfers` also calls in test mode.
 */
export type CardDetails = { number: string; expiryMonth: number; expiryYear: number; cvv: string };

export type CardOutcome =
  | { kind: "success"; authorization: string }
  | { kind: "failed"; reason: string; message: string }
  | { kind: "otp_required"; authorization: string; message: string };

export interface TransferRail {
  readonly name: string;
  /** A one-time account number (NUBAN) at the rail's bank for one payment. */
  issueVirtualAccount(input: { reference: string; accountName: string }): Promise<{
    accountNumber: string;
    bankName: string;
    accountName: string;
  }>;
}

export interface CardRail {
  /** Authorise and capture `amountMinor`; the card data is used for this call only and never kept. */
  authorize(input: {
    card: CardDetails;
    amountMinor: bigint;
    currency: string;
    reference: string;
  }): Promise<CardOutcome>;
  /** Finish an authorisation that asked for a one-time password. */
  confirmOtp(input: { authorization: string; otp: string }): Promise<CardOutcome>;
}

export interface BankPaymentRail {
  /** Ask the customer's bank to push an approval request to its app. */
  requestAuthorization(input: {
    reference: string;
    bankCode: string;
    amountMinor: bigint;
  }): Promise<{ requestId: string }>;
}

export interface UssdRail {
  /** A code the customer dials on the phone registered with their bank. */
  createCode(input: {
    reference: string;
    bankCode: string;
    ussdShortCode: string;
    phoneNumber: string;
  }): Promise<{
    ussdCode: string;
  }>;
}

export type Rails = { transfer: TransferRail; card: CardRail; bankPayment: BankPaymentRail; ussd: UssdRail };
