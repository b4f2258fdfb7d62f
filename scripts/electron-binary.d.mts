/** The Electron executable when it is really installed, else null; never triggers a download. */
export declare function electronBinaryPath(): string | null;
