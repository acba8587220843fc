import { auditContext } from "@/lib/audit/record";
import { defineEndpoint } from "@/lib/core/endpoint";
import { createCustomer } from "./create-customer";
import { deactivateAuthorization } from "./deactivate-authorization";
import { getCustomer } from "./get-customer";
import { listCustomers } from "./list-customers";
import { AuthorizationResponse, CustomerListResponse, CustomerResponse } from "./responses";
import {
  AuthorizationParams,
  CreateCustomerBody,
  CustomerParams,
  CustomersQuery,
  UpdateCustomerBody,
} from "./schemas";
import { updateCustomer } from "./update-customer";

const CREATE_DESCRIPTION =
  "A customer per email (compared without regard to case), merchant and mode. An email already known answers 200 with that customer, unchanged; a new one 201. Every payment with an email belongs to its customer, made on first use.";
const CREATE_EXAMPLE = { email: "customer@example.com", name: "Chioma Okafor", phone: "+2348031234567" };
const UPDATE_EXAMPLE = { name: "Chioma Okafor-Bello", metadata: { plan: "gold" } };
const KNOWN = {
  status: 200,
  description: "The email is already a customer's: that customer, unchanged",
} as const;

/**
 * Customers and their saved cards (docs/customers.md): with the secret key, and the same with a session
 * (the console) under /v1/merchants/.
 */
export const customersEndpoints = {
  create: defineEndpoint({
    method: "POST",
    path: "/v1/customers",
    tag: "Customers",
    summary: "Create a customer, or find the one of an email",
    description: CREATE_DESCRIPTION,
    auth: "secret_key",
    body: CreateCustomerBody,
    status: 201,
    alsoStatus: KNOWN,
    response: CustomerResponse,
    example: CREATE_EXAMPLE,
    handler: async ({ auth, body, answerWith, clientAddress }) => {
      const { created, customer } = await createCustomer({
        merchantId: auth.merchantId,
        mode: auth.mode,
        ...body,
        audit: auditContext(auth, clientAddress),
      });
      if (!created) answerWith(200);
      return customer;
    },
  }),
  list: defineEndpoint({
    method: "GET",
    path: "/v1/customers",
    tag: "Customers",
    summary: "Customers, newest first (or the one of an email)",
    auth: "secret_key",
    query: CustomersQuery,
    status: 200,
    response: CustomerListResponse,
    handler: ({ auth, query }) => listCustomers({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
  }),
  get: defineEndpoint({
    method: "GET",
    path: "/v1/customers/{code}",
    tag: "Customers",
    summary: "One customer, with its saved cards",
    auth: "secret_key",
    params: CustomerParams,
    status: 200,
    response: CustomerResponse,
    errors: ["customer_not_found"],
    handler: ({ auth, params }) =>
      getCustomer({ merchantId: auth.merchantId, mode: auth.mode, code: params.code }),
  }),
  update: defineEndpoint({
    method: "PATCH",
    path: "/v1/customers/{code}",
    tag: "Customers",
    summary: "Change a customer's name, phone or metadata",
    description: "A field left out is unchanged; `null` clears it. The email is the customer's for good.",
    auth: "secret_key",
    params: CustomerParams,
    body: UpdateCustomerBody,
    status: 200,
    response: CustomerResponse,
    errors: ["customer_not_found"],
    example: UPDATE_EXAMPLE,
    handler: ({ auth, params, body, clientAddress }) =>
      updateCustomer({
        merchantId: auth.merchantId,
        mode: auth.mode,
        code: params.code,
        patch: body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  deactivate: defineEndpoint({
    method: "POST",
    path: "/v1/authorizations/{code}/deactivate",
    tag: "Customers",
    summary: "Stop a saved card for good",
    description:
      "The authorization can never be charged again (409 `authorization_inactive`). The customer saving the same card later makes a new one.",
    auth: "secret_key",
    params: AuthorizationParams,
    status: 200,
    response: AuthorizationResponse,
    errors: ["authorization_not_found"],
    handler: ({ auth, params, clientAddress }) =>
      deactivateAuthorization({
        merchantId: auth.merchantId,
        mode: auth.mode,
        code: params.code,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  consoleCreate: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/customers",
    tag: "Customers",
    summary: "Create a customer, or find the one of an email (the console's)",
    description: CREATE_DESCRIPTION,
    auth: "session",
    permission: "customers.write",
    body: CreateCustomerBody,
    status: 201,
    alsoStatus: KNOWN,
    response: CustomerResponse,
    example: CREATE_EXAMPLE,
    handler: async ({ auth, body, answerWith, clientAddress }) => {
      const { created, customer } = await createCustomer({
        merchantId: auth.merchantId,
        mode: auth.mode,
        ...body,
        audit: auditContext(auth, clientAddress),
      });
      if (!created) answerWith(200);
      return customer;
    },
  }),
  consoleList: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/customers",
    tag: "Customers",
    summary: "Customers, newest first (the console's)",
    auth: "session",
    permission: "customers.read",
    query: CustomersQuery,
    status: 200,
    response: CustomerListResponse,
    handler: ({ auth, query }) => listCustomers({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
  }),
  consoleGet: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/customers/{code}",
    tag: "Customers",
    summary: "One customer, with its saved cards (the console's)",
    auth: "session",
    permission: "customers.read",
    params: CustomerParams,
    status: 200,
    response: CustomerResponse,
    errors: ["customer_not_found"],
    handler: ({ auth, params }) =>
      getCustomer({ merchantId: auth.merchantId, mode: auth.mode, code: params.code }),
  }),
  consoleUpdate: defineEndpoint({
    method: "PATCH",
    path: "/v1/merchants/customers/{code}",
    tag: "Customers",
    summary: "Change a customer's name, phone or metadata (the console's)",
    auth: "session",
    permission: "customers.write",
    params: CustomerParams,
    body: UpdateCustomerBody,
    status: 200,
    response: CustomerResponse,
    errors: ["customer_not_found"],
    example: UPDATE_EXAMPLE,
    handler: ({ auth, params, body, clientAddress }) =>
      updateCustomer({
        merchantId: auth.merchantId,
        mode: auth.mode,
        code: params.code,
        patch: body,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  consoleDeactivate: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/authorizations/{code}/deactivate",
    tag: "Customers",
    summary: "Stop a saved card for good (the console's)",
    auth: "session",
    permission: "customers.write",
    params: AuthorizationParams,
    status: 200,
    response: AuthorizationResponse,
    errors: ["authorization_not_found"],
    handler: ({ auth, params, clientAddress }) =>
      deactivateAuthorization({
        merchantId: auth.merchantId,
        mode: auth.mode,
        code: params.code,
        audit: auditContext(auth, clientAddress),
      }),
  }),
};
