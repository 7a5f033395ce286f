"""The trusted side of the sandbox: the zygote's launcher, one child's transport, the proxy, workspaces and limits."""
