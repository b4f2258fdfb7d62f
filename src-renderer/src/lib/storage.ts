/** localStorage that never throws (it can be disabled or full): a preference is nice to keep, not essential. */
export function loadPreference(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function savePreference(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not remembered; the screen still works.
  }
}
