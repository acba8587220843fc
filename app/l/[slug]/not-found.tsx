import { NoticePage } from "@/components/ui/notice-page";

/** An unknown payment link (the page answers 404). */
export default function LinkNotFound() {
  return (
    <NoticePage code="Error 404" title="This payment link is not valid">
      <p>There is no payment link at this address: it may be mistyped or incomplete.</p>
      <p>Check the address with the business that sent it to you, or ask them for a new link.</p>
    </NoticePage>
  );
}
