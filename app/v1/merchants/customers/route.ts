// POST /v1/merchants/customers - create a customer (or find the one of an email); GET - the customers (session token).
import { customersEndpoints } from "@/lib/customers/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  customersEndpoints.consoleList,
  customersEndpoints.consoleCreate,
);
