/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma's dmaengine front for a device's EC engine: a driver whose device
 * has an engine registers an EC provider with provider->dma_dev set to the
 * device, then attaches the front to it, so that md's XOR/PQ work reaches
 * the engine through async_tx (drivers/ecdma/hwsim_main.c does).
 */
#ifndef _ECDMA_DMA_FRONT_H
#define _ECDMA_DMA_FRONT_H

struct device;

int ecdma_dma_attach(struct device *dev, const char *prov_name);
void ecdma_dma_detach(struct device *dev);

#endif /* _ECDMA_DMA_FRONT_H */
