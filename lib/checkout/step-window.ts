/**
 * The window an embedded checkout opens for a bank's page (3-D Secure, internet banking). A module of its own:
 * the checkout's first load needs this name, not the rest of the embed protocol (lib/checkout/embed-protocol.ts).
 */
export const STEP_WINDOW = "paygate-step";
