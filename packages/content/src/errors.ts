/**
 * Thrown by normalizeContent for bodies we do not turn into Markdown: types we do not convert (images, PDFs,
 * archives, octet-stream...), and bodies labelled as text that are not text (`notText`: binary served as HTML).
 */
export class UnsupportedContentTypeError extends Error {
  readonly contentType: string | null;
  readonly notText: boolean;

  constructor(contentType: string | null, notText = false) {
    super(notText ? 'the body is not text' : `unsupported content type: ${contentType ?? '(none)'}`);
    this.name = 'UnsupportedContentTypeError';
    this.contentType = contentType;
    this.notText = notText;
  }
}
