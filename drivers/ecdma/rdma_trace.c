// SPDX-License-Identifier: GPL-2.0
/* ecdma_rdma's tracepoints: their one definition (rdma_trace.h) */
#include "rdma_priv.h"

#define CREATE_TRACE_POINTS
#include "rdma_trace.h"
