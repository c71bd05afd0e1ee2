# offlink on Debian: the distribution's default GCC with its nvptx and amdgcn offload compilers,
# and offlink's Debian package, which diverts GCC's lto-wrapper and mkoffloads to offlink.
#
#   docker build -t offlink .                                          # Debian 13 trixie: GCC 14,
#                                                                      # Debian's openjdk-25
#   docker build -t offlink:bookworm --build-arg DEBIAN=bookworm .     # Debian 12: GCC 12, openjdk-17
#   docker run --rm offlink     # links and runs examples/saxpy.c with a plain gcc, then shows
#                               # `offlink inspect` of the program
#
# Two stages: the first builds the package (dpkg-buildpackage: a JDK, Maven, gcc for the native
# link client, and debhelper, on the image's own Debian, whose libc the client is linked against);
# the second is the image: GCC, the newest JRE Debian has for it, and the package, whose postinst
# trains the start-up caches for that JRE, here at build time. Its links run in a link server
# started by the first link of a container (and ended with it).

ARG DEBIAN=trixie

FROM debian:${DEBIAN} AS build
# Behind a TLS-inspecting proxy Maven needs its CA: --build-arg EXTRA_CA_CERTS="$(cat ca.pem)"
# (PEM, one or more certificates; this stage only, the image never sees it).
ARG EXTRA_CA_CERTS=
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      default-jdk-headless maven ca-certificates-java dpkg-dev debhelper locales build-essential \
 && rm -rf /var/lib/apt/lists/* \
 && if [ -n "$EXTRA_CA_CERTS" ]; then \
      printf '%s\n' "$EXTRA_CA_CERTS" | csplit -s -z -f /usr/local/share/ca-certificates/extra- \
        -b '%02d.crt' - '/-----BEGIN CERTIFICATE-----/' '{*}' \
      && update-ca-certificates; \
    fi
WORKDIR /src/offlink
COPY . .
RUN dpkg-buildpackage -b -us -uc \
 && mkdir /deb && mv ../offlink_*.deb /deb/

FROM debian:${DEBIAN}
# GCC's offload compilers and the JRE first (a layer that stays cached while offlink changes),
# procps too, the package's other dependency (kill(1)), since the package is installed from a
# file after the lists are gone;
# the JRE before the package so that the package's Java dependency is met by it: openjdk-25 on
# trixie, openjdk-17 (the newest there) on bookworm. A JRE is taken when apt has a version of it
# (madison): bookworm knows the name openjdk-21-jre-headless, so `apt-cache show` succeeds there,
# but has no openjdk-21 to install.
RUN apt-get update \
 && jre=$(for v in 25 21 17; do \
            if [ -n "$(apt-cache madison "openjdk-$v-jre-headless")" ]; then echo "openjdk-$v-jre-headless"; break; fi; \
          done) \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      "$jre" gcc-offload-nvptx gcc-offload-amdgcn libc6-dev binutils procps \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 1000 --shell /bin/bash offlink
COPY --from=build /deb /tmp/deb
# Its postinst diverts GCC's files and trains the start-up cache: the build fails without one.
RUN DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /tmp/deb/offlink_*.deb \
 && rm -rf /tmp/deb \
 && ls /var/cache/offlink/cds/*
USER offlink
WORKDIR /home/offlink
CMD ["sh", "-c", "set -e; gcc -fopenmp -foffload=nvptx-none -foffload=amdgcn-amdhsa=-march=gfx906 /usr/lib/offlink/examples/saxpy.c -o saxpy && ./saxpy && offlink inspect saxpy"]
