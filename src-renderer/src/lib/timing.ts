/**
 * User-timing marks for benchmarks (c) and (e) (docs/benchmarks.md): the click on Charge and the frame in which a QR
 * code is painted; an order's live event and the frame that paints Today's list with it. Read from outside with
 * performance.getEntriesByName. Only the latest of each is kept: a till runs for days, and nothing else reads them.
 */
export const CHARGE_MARK = 'loket:charge';
export const QR_PAINTED_MARK = 'loket:qr-painted';
export const ORDER_EVENT_MARK = 'loket:order-event';
export const LIST_UPDATED_MARK = 'loket:list-updated';
export const DISPLAY_EVENT_MARK = 'loket:display-event';

/** Not every page has user timing or animation frames (jsdom in the unit tests): then there is nothing to mark. */
const canMark = () => typeof performance?.mark === 'function' && typeof requestAnimationFrame === 'function';

export function markCharge(): void {
  if (!canMark()) return;
  performance.clearMarks(CHARGE_MARK);
  performance.mark(CHARGE_MARK);
}

/** Called once the image is in the DOM: the next animation frame is the one that paints it. */
export function markQrPainted(where: string, text: string): void {
  if (!canMark()) return;
  requestAnimationFrame(() => {
    performance.clearMarks(QR_PAINTED_MARK);
    performance.mark(QR_PAINTED_MARK, { detail: { where, text } });
  });
}

/** An order's live event has arrived (before any screen has taken it in). */
export function markOrderEvent(): void {
  if (!canMark()) return;
  performance.clearMarks(ORDER_EVENT_MARK);
  performance.mark(ORDER_EVENT_MARK);
}

/** Today's list has changed in the DOM: the next animation frame paints it. */
export function markListUpdated(count: number): void {
  if (!canMark()) return;
  requestAnimationFrame(() => {
    performance.clearMarks(LIST_UPDATED_MARK);
    performance.mark(LIST_UPDATED_MARK, { detail: { count } });
  });
}

/** The customer display's live state has arrived (before it is drawn): splits (c) into the trip and the drawing. */
export function markDisplayEvent(): void {
  if (!canMark()) return;
  performance.clearMarks(DISPLAY_EVENT_MARK);
  performance.mark(DISPLAY_EVENT_MARK);
}
