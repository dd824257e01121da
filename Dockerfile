# Image of the reference operator for `kubectl ctrldiag operator install`: the container runs
# `kubectl-ctrldiag-operator run ...`. Static build, distroless, non-root (uid 65532).
#   docker build --build-arg VERSION=v0.1.0 -t ghcr.io/ctrldiag/kubectl-ctrldiag:v0.1.0 .
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY cmd/ cmd/
COPY pkg/ pkg/
ARG VERSION=unknown
ARG COMMIT=unknown
ARG BUILD_DATE=unknown
RUN CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X github.com/ctrldiag/kubectl-ctrldiag/pkg/version.version=${VERSION} -X github.com/ctrldiag/kubectl-ctrldiag/pkg/version.commit=${COMMIT} -X github.com/ctrldiag/kubectl-ctrldiag/pkg/version.buildDate=${BUILD_DATE}" \
    -o /out/kubectl-ctrldiag-operator ./cmd/kubectl-ctrldiag-operator

FROM gcr.io/distroless/static:nonroot
COPY --from=build /out/kubectl-ctrldiag-operator /usr/local/bin/kubectl-ctrldiag-operator
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/kubectl-ctrldiag-operator"]
CMD ["run"]
