import { NoticePage } from "@/components/ui/notice-page";

/** An unknown, expired or mistyped access code (the page answers 404). */
export default function CheckoutNotFound() {
  return (
    <NoticePage code="Error 404" title="This payment link is not valid">
      <p>It may have expired, or the address may be incomplete.</p>
      <p>
        Go back to the business you were paying and start the payment again. Nothing was charged on this page.
      </p>
    </NoticePage>
  );
}
