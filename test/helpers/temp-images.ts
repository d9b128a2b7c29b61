/** Temp images for reader tests, removed after the test that made them (kept apart from sqlite-fixtures.ts, which also runs as a script). */
import { afterEach } from 'vitest';
import { makeImage, type TempImage } from './sqlite-fixtures.js';

/** `image()` for a test file: a fresh temp image per call, each removed after the test that made it. */
export function useImages(): () => TempImage {
  const made: TempImage[] = [];
  afterEach(() => {
    for (const img of made.splice(0)) img.remove();
  });
  return () => {
    const img = makeImage();
    made.push(img);
    return img;
  };
}
