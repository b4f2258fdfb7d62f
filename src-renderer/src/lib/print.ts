/**
 * Prints a self-contained HTML document (the receipt: inline CSS, no scripts) from a hidden iframe, so the
 * cashier screen itself is not what gets printed. It calls the frame's print() once; it resolves once print()
 * has returned (browsers hold it while their print dialog is open), and the frame is removed after printing.
 */
export function printHtml(html: string, title: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.title = title;
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0';
    let removeTimer: ReturnType<typeof setTimeout> | undefined;
    const remove = () => {
      clearTimeout(removeTimer);
      frame.remove();
    };
    frame.addEventListener(
      'load',
      () => {
        const win = frame.contentWindow;
        if (!win) {
          remove();
          reject(new Error('the receipt could not be prepared for printing'));
          return;
        }
        win.addEventListener('afterprint', () => setTimeout(remove, 0), { once: true });
        // Browsers that do not fire afterprint: do not leave the frame behind.
        removeTimer = setTimeout(remove, 60_000);
        try {
          win.print();
          resolve();
        } catch (err) {
          remove();
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      },
      { once: true },
    );
    frame.srcdoc = html;
    document.body.append(frame);
  });
}
