import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A one-day self-signed certificate, made with the openssl binary at test time (never checked in). */
export function selfSignedCertificate(dir: string, commonName = 'example.test'): { key: Buffer; cert: Buffer } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${commonName}`, '-keyout', keyFile, '-out', certFile],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile), cert: readFileSync(certFile) };
}
