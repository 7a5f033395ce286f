"""The trusted side of attnkit: curriculum metadata, checks, mistake diagnosis and the sandbox."""
