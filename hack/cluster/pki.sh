#!/usr/bin/env bash
# Writes the local cluster's PKI into DIR with openssl: a CA, serving certificates for the API
# server and kwok, the service-account key pair, and client certificates for each identity.
# Usage: pki.sh DIR NODE_IP
set -euo pipefail
dir=$1 node_ip=$2
mkdir -p "$dir"; cd "$dir"

openssl genrsa -out ca.key 2048 2>/dev/null
openssl req -x509 -new -key ca.key -subj "/CN=ctrldiag-local-ca" -days 3650 -out ca.crt 2>/dev/null
openssl genrsa -out sa.key 2048 2>/dev/null
openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null

# cert NAME SUBJECT EXTENSIONS: a key and a certificate signed by the CA.
cert() {
  openssl genrsa -out "$1.key" 2048 2>/dev/null
  openssl req -new -key "$1.key" -subj "$2" -out "$1.csr" 2>/dev/null
  printf '%s\n' "$3" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 \
    -extfile "$1.ext" -out "$1.crt" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
  chmod 600 "$1.key"
}
client='keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth'
serving() { printf 'keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=%s' "$1"; }

cert apiserver "/CN=kube-apiserver" "$(serving "DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:$node_ip,IP:198.18.64.1")"
cert kwok "/CN=ctrldiag-node" "$(serving "DNS:localhost,DNS:ctrldiag-node,IP:127.0.0.1,IP:$node_ip")"
cert admin "/O=system:masters/CN=ctrldiag-admin" "$client"
cert restricted "/CN=ctrldiag-restricted" "$client"
cert controller-manager "/CN=system:kube-controller-manager" "$client"
cert scheduler "/CN=system:kube-scheduler" "$client"
cert kwok-client "/O=system:masters/CN=kwok" "$client"
cert apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" "$client"
