// Types of preflight.mjs, which stays plain JavaScript so that it runs without a build step.
export declare const CHROMIUM: string;
export declare function chromiumProblem(): string | undefined;
