#!/usr/bin/env bash
# Makes a throwaway certificate set for a local TLS cluster or the tests:
#   scripts/make_certs.sh DIR [HOST...]
# In DIR (created if missing):
#   ca.pem, ca.key                 a CA (CN=ics-test-ca)
#   server.pem, server.key         signed by it, for the daemons; names
#                                  127.0.0.1, ::1, localhost and every HOST
#   catalogd.pem, catalogd.key     the same for catalogd alone, CN=catalogd
#                                  (the identity that may write catalog-update)
#   client.pem, client.key         signed by it, CN=ics-client (a shell or
#                                  an operator's tool under mutual TLS)
#   other-ca.pem, other.pem, other.key
#                                  a second CA and a certificate it signed
#                                  (what a peer outside the cluster has)
# EC P-256 keys, valid 30 days. Never use these in production: the CA key
# sits next to the certificates.
set -euo pipefail
dir=${1:?usage: $0 DIR [HOST...]}
shift
mkdir -p "$dir"
cd "$dir"
san="IP:127.0.0.1,IP:::1,DNS:localhost"
for h in "$@"; do
  if [[ "$h" =~ ^[0-9.]+$ || "$h" == *:* ]]; then san="$san,IP:$h"; else san="$san,DNS:$h"; fi
done
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
ca() {  # name subject
  key "$1.key"
  openssl req -x509 -new -key "$1.key" -out "$1.pem" -days 30 -subj "$2" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
}
leaf() {  # name subject ca extensions
  key "$1.key"
  openssl req -new -key "$1.key" -out "$1.csr" -subj "$2"
  printf '%s\n' "$4" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -CAcreateserial -out "$1.pem" \
    -days 30 -extfile "$1.ext" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}
ca ca "/CN=ics-test-ca"
leaf server "/CN=ics-daemon" ca "subjectAltName=$san
extendedKeyUsage=serverAuth,clientAuth"
leaf catalogd "/CN=catalogd" ca "subjectAltName=$san
extendedKeyUsage=serverAuth,clientAuth"
leaf client "/CN=ics-client" ca "extendedKeyUsage=clientAuth"
ca other-ca "/CN=other-ca"
leaf other "/CN=intruder" other-ca "subjectAltName=$san
extendedKeyUsage=serverAuth,clientAuth"
rm -f ./*.srl
chmod 600 ./*.key
echo "certificates in $PWD: ca.pem server.pem/key catalogd.pem/key client.pem/key" \
  "other-ca.pem other.pem/key"
