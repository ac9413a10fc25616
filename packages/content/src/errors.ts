/** Thrown by normalizeContent for bodies we do not turn into Markdown (images, PDFs, archives, octet-stream...). */
export class UnsupportedContentTypeError extends Error {
  readonly contentType: string | null;

  constructor(contentType: string | null) {
    super(`unsupported content type: ${contentType ?? '(none)'}`);
    this.name = 'UnsupportedContentTypeError';
    this.contentType = contentType;
  }
}
