/** One hash of every build input's path and contents (src-main, src-preload, src-renderer, resources, configs). */
export declare function inputsHash(root?: string): string;
/** Builds out/ unless it was built from these very inputs; the build's exit code (0 when skipped). */
export declare function buildIfChanged(options?: {
  force?: boolean;
  quiet?: boolean;
  root?: string;
  build?: (root: string) => number;
}): number;
