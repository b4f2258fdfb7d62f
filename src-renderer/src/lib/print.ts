/**
 * Prints a self-contained HTML document (the receipt: inline CSS, no scripts) from a hidden iframe, so the
 * cashier screen itself is not what gets printed. The frame is removed once printing is done.
 */
export function printHtml(html: string, title: string): Promise<void> {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.title = title;
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0';
    const cleanUp = () => {
      frame.remove();
      resolve();
    };
    frame.addEventListener(
      'load',
      () => {
        const win = frame.contentWindow;
        if (!win) return cleanUp();
        win.addEventListener('afterprint', () => setTimeout(cleanUp, 0), { once: true });
        try {
          win.print();
        } catch {
          cleanUp();
          return;
        }
        // Browsers that do not fire afterprint: do not leave the frame behind.
        setTimeout(cleanUp, 60_000);
      },
      { once: true },
    );
    frame.srcdoc = html;
    document.body.append(frame);
  });
}
