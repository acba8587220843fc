// POST /v1/customers - create a customer (or find the one of an email); GET /v1/customers - the merchant's customers (secret key).
import { customersEndpoints } from "@/lib/customers/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  customersEndpoints.list,
  customersEndpoints.create,
);
