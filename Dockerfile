# offlink on Debian bookworm: GCC 12 with its nvptx and amdgcn offload compilers, and offlink
# installed in place of GCC's lto-wrapper and mkoffloads (scripts/install.sh --replace-gcc).
#
#   docker build -t offlink .
#   docker run --rm offlink     # links and runs examples/saxpy.c with a plain gcc, then shows
#                               # `offlink inspect` of the program
#
# Two stages: the JDK, Maven and gcc (for the native link client) only build the tree; the final
# image has a JRE, GCC and offlink. Its links run in a link server started by the first link of a
# container (and ended with it).

FROM debian:bookworm AS build
# Behind a TLS-inspecting proxy Maven needs its CA: --build-arg EXTRA_CA_CERTS="$(cat ca.pem)"
# (PEM, one or more certificates; this stage only, the final image never sees it).
ARG EXTRA_CA_CERTS=
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      openjdk-17-jdk-headless maven ca-certificates-java locales gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/* \
 && if [ -n "$EXTRA_CA_CERTS" ]; then \
      printf '%s\n' "$EXTRA_CA_CERTS" | csplit -s -z -f /usr/local/share/ca-certificates/extra- \
        -b '%02d.crt' - '/-----BEGIN CERTIFICATE-----/' '{*}' \
      && update-ca-certificates; \
    fi
WORKDIR /src
COPY . .
# No start-up cache here: it is trained in the final image, for its JRE, by install.sh.
# What the final stage needs, in one folder (one COPY, one layer).
RUN mvn -B -q -DskipTests -Dofflink.skipStartupCache=true -pl distribution -am package \
 && mkdir -p /opt/offlink-src/target \
 && cp -r scripts examples /opt/offlink-src/ \
 && cp -r target/offlink /opt/offlink-src/target/

FROM debian:bookworm
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      gcc gcc-12 libc6-dev gcc-12-offload-nvptx gcc-12-offload-amdgcn \
      libgomp-plugin-nvptx1 libgomp-plugin-amdgcn1 binutils openjdk-17-jre-headless \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/offlink-src /opt/offlink-src
RUN /opt/offlink-src/scripts/install.sh --prefix /usr/local --replace-gcc \
 && rm -rf /opt/offlink-src/target \
 && useradd --create-home --uid 1000 --shell /bin/bash offlink
USER offlink
WORKDIR /home/offlink
CMD ["sh", "-c", "set -e; gcc -fopenmp -foffload=nvptx-none -foffload=amdgcn-amdhsa=-march=gfx906 /opt/offlink-src/examples/saxpy.c -o saxpy && ./saxpy && offlink inspect saxpy"]
