/**
 * The chart as a standalone image: its SVG with the page's computed colours written in (the page styles it
 * through CSS custom properties, which a saved file does not have), as .svg or rasterised to .png.
 */

import { downloadBlob } from '../downloadText';

const STYLE_PROPERTIES = [
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'opacity',
  'fill-opacity',
  'font-size',
  'font-family',
];

/** A copy of `svg` with every element's computed colours inlined and an opaque background. */
export function standaloneSvg(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const originals = svg.querySelectorAll('*');
  const copies = copy.querySelectorAll('*');
  originals.forEach((element, i) => {
    const style = getComputedStyle(element);
    const target = copies[i] as SVGElement | undefined;
    if (!target) return;
    for (const property of STYLE_PROPERTIES) target.style.setProperty(property, style.getPropertyValue(property));
  });
  const { width, height } = svg.getBoundingClientRect();
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(Math.round(width)));
  copy.setAttribute('height', String(Math.round(height)));
  const background = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', getComputedStyle(svg.closest('figure') ?? document.body).backgroundColor || '#fff');
  copy.insertBefore(background, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

export function saveChartSvg(svg: SVGSVGElement, fileName: string): void {
  downloadBlob(fileName, new Blob([standaloneSvg(svg)], { type: 'image/svg+xml' }));
}

/** Rasterised at twice the device pixel ratio's size for a sharp image. */
export async function saveChartPng(svg: SVGSVGElement, fileName: string): Promise<void> {
  const text = standaloneSvg(svg);
  const { width, height } = svg.getBoundingClientRect();
  const scale = 2 * (window.devicePixelRatio || 1);
  const image = new Image();
  await new Promise<void>((done, fail) => {
    image.onload = () => done();
    image.onerror = () => fail(new Error('the chart could not be drawn as an image'));
    // a data: URL, not a blob: one: the app's Content-Security-Policy allows images from 'self' and data: only
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  });
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas to draw the chart on');
  context.scale(scale, scale);
  context.drawImage(image, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((done) => canvas.toBlob(done, 'image/png'));
  if (!blob) throw new Error('the chart could not be encoded as PNG');
  downloadBlob(fileName, blob);
}
