/**
 * Moves the focus to the element once it is on screen: each step of a shift's dialog starts at its first field, as the
 * dialog itself does when it opens (showModal focuses only once, not when the dialog's content changes).
 */
export function focusFirst(node: HTMLElement): void {
  queueMicrotask(() => {
    if (node.isConnected) node.focus();
  });
}
