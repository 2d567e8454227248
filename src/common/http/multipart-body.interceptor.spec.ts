import { Controller, Delete, Get, Patch, Post, UploadedFile, UseInterceptors, type NestInterceptor } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { bindToBodyRoutes, MultipartBodyInterceptor } from './multipart-body.interceptor';

class OwnInterceptor implements NestInterceptor {
  intercept(): never {
    throw new Error('not run');
  }
}

@Controller('things')
class ThingsController {
  @Get()
  list(): void {}

  @Post()
  create(): void {}

  @Patch(':id')
  @UseInterceptors(OwnInterceptor)
  edit(): void {}

  @Delete(':id')
  remove(): void {}

  @Post(':id/file')
  upload(@UploadedFile() _file: unknown): void {}

  helper(): void {}
}

const interceptorsOf = (name: keyof ThingsController): unknown[] =>
  (Reflect.getMetadata(INTERCEPTORS_METADATA, ThingsController.prototype[name]) ?? []) as unknown[];

describe('bindToBodyRoutes', () => {
  it('binds the multipart interceptor to the routes that read a body and take no file, before their own', () => {
    const interceptor = new MultipartBodyInterceptor({ maxRequestBodyBytes: 1000, uploadMaxFields: 10, uploadMaxFieldBytes: 100 });
    const discovery = { getControllers: () => [{ instance: new ThingsController(), metatype: ThingsController }] } as unknown as DiscoveryService;
    expect(bindToBodyRoutes(interceptor, discovery, new MetadataScanner())).toBe(3);
    expect(interceptorsOf('create')).toEqual([interceptor]);
    expect(interceptorsOf('edit')).toEqual([interceptor, OwnInterceptor]);
    expect(interceptorsOf('remove')).toEqual([interceptor]);
    // Reads (no interceptor: Nest runs them without rxjs), upload routes (their own parser) and non-routes.
    expect(interceptorsOf('list')).toEqual([]);
    expect(interceptorsOf('upload')).toEqual([]);
    expect(interceptorsOf('helper')).toEqual([]);
  });

  it('replaces the interceptor an earlier app of the process bound, instead of adding a second parser', () => {
    const discovery = { getControllers: () => [{ instance: new ThingsController(), metatype: ThingsController }] } as unknown as DiscoveryService;
    const first = new MultipartBodyInterceptor({ maxRequestBodyBytes: 1000, uploadMaxFields: 10, uploadMaxFieldBytes: 100 });
    const second = new MultipartBodyInterceptor({ maxRequestBodyBytes: 2000, uploadMaxFields: 20, uploadMaxFieldBytes: 200 });
    bindToBodyRoutes(first, discovery, new MetadataScanner());
    expect(bindToBodyRoutes(second, discovery, new MetadataScanner())).toBe(3);
    expect(interceptorsOf('create')).toEqual([second]);
    expect(interceptorsOf('edit')).toEqual([second, OwnInterceptor]);
  });
});
