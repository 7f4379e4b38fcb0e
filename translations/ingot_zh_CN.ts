<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ingot::AwsConfig</name>
    <message>
        <source>The AWS profile &quot;%1&quot; is in neither %2 nor %3.</source>
        <translation>AWS 配置文件 “%1” 既不在 %2 中，也不在 %3 中。</translation>
    </message>
    <message>
        <source>%1 is set in the environment without %2.</source>
        <translation>环境中设置了 %1，但没有设置 %2。</translation>
    </message>
    <message>
        <source>The AWS profile &quot;%1&quot; uses %2, which Ingot does not support yet: give it keys in the environment, a profile with aws_access_key_id, or run on an instance with a role.</source>
        <translation>AWS 配置文件 “%1” 使用了 %2，Ingot 尚不支持：请在环境中提供密钥、使用带有 aws_access_key_id 的配置文件，或在带有角色的实例上运行。</translation>
    </message>
    <message>
        <source>The AWS profile &quot;%1&quot; assumes the role %2, but %3</source>
        <translation>AWS 配置文件“%1”要代入角色 %2，但%3</translation>
    </message>
    <message>
        <source>its source profile &quot;%1&quot; assumes a role too, which Ingot does not chain yet.</source>
        <translation>其源配置文件“%1”也要代入角色，Ingot 暂不支持角色链。</translation>
    </message>
    <message>
        <source>its source profile &quot;%1&quot; has no keys.</source>
        <translation>其源配置文件“%1”没有密钥。</translation>
    </message>
    <message>
        <source>AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set (credential_source = Environment).</source>
        <translation>未设置 AWS_ACCESS_KEY_ID 和 AWS_SECRET_ACCESS_KEY（credential_source = Environment）。</translation>
    </message>
    <message>
        <source>names neither source_profile nor credential_source.</source>
        <translation>既没有指定 source_profile，也没有指定 credential_source。</translation>
    </message>
    <message>
        <source>credential_source = %1 is not supported (Environment and Ec2InstanceMetadata are).</source>
        <translation>不支持 credential_source = %1（支持 Environment 和 Ec2InstanceMetadata）。</translation>
    </message>
    <message>
        <source>the source key %1 holds a control character (a line break?), which would go into an HTTP header.</source>
        <translation>源密钥 %1 含有控制字符（换行符？），它会进入 HTTP 头。</translation>
    </message>
    <message>
        <source>the profile &quot;%1&quot; in %2</source>
        <translation>%2 中的配置文件“%1”</translation>
    </message>
    <message>
        <source>The AWS region &quot;%1&quot; (from %2) is not a region name (letters, digits and hyphens, like us-east-1): refused, since it would become part of the host name requests go to.</source>
        <translation>AWS 区域“%1”（来自 %2）不是区域名称（应由字母、数字和连字符组成，如 us-east-1）：已拒绝，因为它会成为请求所发往主机名的一部分。</translation>
    </message>
    <message>
        <source>The AWS key %1 (from the %2) holds a control character (a line break?): refused, since it would go into an HTTP header. Write it again on one line.</source>
        <translation>AWS 密钥 %1（来自 %2）含有控制字符（换行符？）：已拒绝，因为它会进入 HTTP 头。请将它重新写在一行中。</translation>
    </message>
</context>
<context>
    <name>ingot::CacheChartsWidget</name>
    <message>
        <source>Size by compiler version</source>
        <translation>按编译器版本的大小</translation>
    </message>
    <message>
        <source>Entries by last use</source>
        <translation>按上次使用的条目</translation>
    </message>
    <message>
        <source>entries</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>No compiler versions yet.</source>
        <translation>还没有编译器版本。</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %n compiler version(s); the largest, %2, holds %3.</source>
        <translation>
            <numerusform>共 %1，分布在 %n 个编译器版本中；最大的 %2 占 %3。</numerusform>
        </translation>
    </message>
    <message>
        <source>No entries yet.</source>
        <translation>还没有条目。</translation>
    </message>
    <message numerus="yes">
        <source>%n entries; most of them (%1) were last used %2 ago.</source>
        <translation>
            <numerusform>共 %n 个条目；其中最多的一组（%1 个）上次使用于 %2前。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
</context>
<context>
    <name>ingot::CacheFilter</name>
    <message>
        <source>&quot;%1&quot; is not a filter: write FIELD OP VALUE with a field of size, used, state, compiler or name and an operator of = != &gt; &gt;= &lt; &lt;= (e.g. size&gt;1GB, used&gt;30d, state=failed)</source>
        <translation>“%1”不是过滤条件：请写成 字段 运算符 值，字段为 size、used、state、compiler 或 name，运算符为 = != &gt; &gt;= &lt; &lt;=（例如 size&gt;1GB、used&gt;30d、state=failed）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; has no value after its operator</source>
        <translation>“%1”的运算符后没有值</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: a size such as 500MB, 1.5GB or 20GiB, not &quot;%2&quot;</source>
        <translation>“%1”：应为大小，例如 500MB、1.5GB 或 20GiB，而不是“%2”</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: an age such as 90m, 12h, 30d or 2w, not &quot;%2&quot;</source>
        <translation>“%1”：应为时长，例如 90m、12h、30d 或 2w，而不是“%2”</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: a state of SUCCESS, FAILED, LOCKED, INCOMPLETE, EMPTY or UNKNOWN, not &quot;%2&quot;</source>
        <translation>“%1”：应为状态 SUCCESS、FAILED、LOCKED、INCOMPLETE、EMPTY 或 UNKNOWN 之一，而不是“%2”</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: %2 takes = or != only</source>
        <translation>“%1”：%2 只能用 = 或 !=</translation>
    </message>
    <message>
        <source>--sort takes name, size, used, state or compiler (with :asc or :desc), not &quot;%1&quot;</source>
        <translation>--sort 接受 name、size、used、state 或 compiler（可加 :asc 或 :desc），而不是“%1”</translation>
    </message>
    <message>
        <source>--sort: the direction is asc or desc, not &quot;%1&quot;</source>
        <translation>--sort：方向为 asc 或 desc，而不是“%1”</translation>
    </message>
</context>
<context>
    <name>ingot::CacheLocation</name>
    <message>
        <source>NEURON_CC_FLAGS contains --cache_dir=%1, which takes precedence over NEURON_COMPILE_CACHE_URL and the default.</source>
        <translation>NEURON_CC_FLAGS 中包含 --cache_dir=%1，其优先级高于 NEURON_COMPILE_CACHE_URL 和默认值。</translation>
    </message>
    <message>
        <source>NEURON_COMPILE_CACHE_URL is set to %1 (NEURON_CC_FLAGS has no --cache_dir).</source>
        <translation>NEURON_COMPILE_CACHE_URL 设置为 %1（NEURON_CC_FLAGS 中没有 --cache_dir）。</translation>
    </message>
    <message>
        <source>Neither --cache_dir in NEURON_CC_FLAGS nor NEURON_COMPILE_CACHE_URL is set, so the Neuron default %1 is used.</source>
        <translation>NEURON_CC_FLAGS 中未设置 --cache_dir，也未设置 NEURON_COMPILE_CACHE_URL，因此使用 Neuron 默认位置 %1。</translation>
    </message>
    <message>
        <source>Note: --no_cache in NEURON_CC_FLAGS disables the compile cache for jobs started with these flags.</source>
        <translation>注意：NEURON_CC_FLAGS 中的 --no_cache 会为使用这些参数启动的任务禁用编译缓存。</translation>
    </message>
    <message>
        <source>%1 did not answer the question where its compile cache is (exit status %2).</source>
        <translation>%1 未能返回其编译缓存的位置（退出状态 %2）。</translation>
    </message>
    <message>
        <source>On %1 (as its login shell sets the environment): %2</source>
        <translation>在 %1 上（按其登录 shell 设置的环境）：%2</translation>
    </message>
    <message>
        <source>On %1: %2</source>
        <translation>在 %1 上：%2</translation>
    </message>
    <message>
        <source>%1 is an S3 cache, and this works on folders. Open the S3 cache itself: File &gt; Open an S3 cache, or ingot-cli cache status --cache-dir %1 (cache copy --from %1 brings entries here).</source>
        <translation>%1 是 S3 缓存，而这里只处理文件夹。请直接打开该 S3 缓存：文件 &gt; 打开 S3 缓存，或 ingot-cli cache status --cache-dir %1（cache copy --from %1 可将条目取到本机）。</translation>
    </message>
</context>
<context>
    <name>ingot::CacheModule</name>
    <message>
        <source>A *.lock file is present: a compile is running, or a killed one left a stale lock.</source>
        <translation>存在 *.lock 文件：编译正在进行，或被终止的编译留下了过期锁。</translation>
    </message>
    <message>
        <source>model.neff is present but model.done is missing: the compile was interrupted.</source>
        <translation>存在 model.neff 但缺少 model.done：编译被中断。</translation>
    </message>
    <message>
        <source>Compiled: model.neff is present.</source>
        <translation>已编译：存在 model.neff。</translation>
    </message>
    <message>
        <source>model.log without model.neff: the compile failed. The compiler will not retry until this entry is deleted (or --retry_failed_compilation is passed).</source>
        <translation>有 model.log 但没有 model.neff：编译失败。在删除此条目（或传入 --retry_failed_compilation）之前，编译器不会重试。</translation>
    </message>
    <message>
        <source>The folder is empty.</source>
        <translation>文件夹为空。</translation>
    </message>
    <message>
        <source>No model.neff, no model.log and no lock: the compile never finished.</source>
        <translation>没有 model.neff、model.log，也没有锁：编译从未完成。</translation>
    </message>
</context>
<context>
    <name>ingot::CachePolicy</name>
    <message>
        <source>at most %1</source>
        <translation>最多 %1</translation>
    </message>
    <message numerus="yes">
        <source>the %n newest compiler(s)</source>
        <translation>
            <numerusform>最新的 %n 个编译器</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>unused over %n day(s)</source>
        <translation>
            <numerusform>超过 %n 天未使用</numerusform>
        </translation>
    </message>
    <message>
        <source>failed entries</source>
        <translation>失败的条目</translation>
    </message>
    <message>
        <source>stale locks</source>
        <translation>过期的锁</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>not a cache policy Ingot wrote</source>
        <translation>不是 Ingot 写入的缓存策略</translation>
    </message>
    <message>
        <source>Policy %1: %2.</source>
        <translation>策略 %1：%2。</translation>
    </message>
    <message>
        <source>Failed: the next run compiles it again.</source>
        <translation>失败：下次运行会重新编译。</translation>
    </message>
    <message numerus="yes">
        <source>Compiler %1 is not one of the %n newest.</source>
        <translation>
            <numerusform>编译器 %1 不在最新的 %n 个之内。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Unused for %n days.</source>
        <translation>
            <numerusform>已 %n 天未使用。</numerusform>
        </translation>
    </message>
    <message>
        <source>LOCKED: a compile may be running on it; locked entries are never removed.</source>
        <translation>LOCKED：可能有编译正在使用它；锁定的条目永远不会被删除。</translation>
    </message>
    <message>
        <source>Least recently used while the cache is over %1.</source>
        <translation>最久未使用（缓存超过 %1）。</translation>
    </message>
    <message>
        <source>The cache stays over %1 (%2): what remains is locked or not the compiler&apos;s.</source>
        <translation>缓存仍超过 %1（%2）：剩余的条目已锁定或不属于该编译器。</translation>
    </message>
    <message>
        <source>Locks are left: %1</source>
        <translation>保留的锁：%1</translation>
    </message>
</context>
<context>
    <name>ingot::CacheScanner</name>
    <message>
        <source>%1 vanished during the scan.</source>
        <translation>%1 在扫描过程中消失了。</translation>
    </message>
    <message>
        <source>the cache root</source>
        <translation>缓存根目录</translation>
    </message>
    <message>
        <source>A broken symbolic link in %1.</source>
        <translation>%1 中的失效符号链接。</translation>
    </message>
    <message>
        <source>A symbolic link in %1 pointing outside the cache root; not followed.</source>
        <translation>%1 中指向缓存根目录之外的符号链接；不跟随。</translation>
    </message>
    <message>
        <source>A symbolic link in %1; not followed.</source>
        <translation>%1 中的符号链接；不跟随。</translation>
    </message>
    <message>
        <source>Left over from an interrupted removal by Ingot; safe to delete by hand.</source>
        <translation>Ingot 中断的删除操作留下的残留，可以安全地手动删除。</translation>
    </message>
    <message>
        <source>A folder the Neuron compiler does not write in %1; not scanned.</source>
        <translation>%1 中并非由 Neuron 编译器写入的文件夹；未扫描。</translation>
    </message>
    <message>
        <source>A file the Neuron compiler does not write in %1.</source>
        <translation>%1 中并非由 Neuron 编译器写入的文件。</translation>
    </message>
    <message>
        <source>Unusual module name: the compiler writes MODULE_&lt;hash&gt;+&lt;flags hash&gt;.</source>
        <translation>模块名称不寻常：编译器写入的名称格式为 MODULE_&lt;hash&gt;+&lt;flags hash&gt;。</translation>
    </message>
    <message>
        <source>Unexpected sub-folder &quot;%1&quot;; its contents are not scanned.</source>
        <translation>意外的子文件夹“%1”；不扫描其内容。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a broken symbolic link.</source>
        <translation>“%1”是失效的符号链接。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; links outside the cache root; the link is never followed when deleting.</source>
        <translation>“%1”指向缓存根目录之外；删除时从不跟随该链接。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a regular file (a pipe, socket or device), or could not be read.</source>
        <translation>“%1”不是普通文件（而是管道、套接字或设备），或无法读取。</translation>
    </message>
    <message>
        <source>A transfer into this cache is in progress or was interrupted; Ingot resumes it.</source>
        <translation>有一个向此缓存的传输正在进行或已中断；Ingot 会继续该传输。</translation>
    </message>
</context>
<context>
    <name>ingot::CacheSeed</name>
    <message>
        <source>The job&apos;s cache %1 cannot be made.</source>
        <translation>作业的缓存 %1 无法创建。</translation>
    </message>
    <message>
        <source>The job&apos;s cache %1 cannot be read: %2</source>
        <translation>无法读取作业的缓存 %1：%2</translation>
    </message>
    <message>
        <source>Bringing compiled graphs: %1 of %2 copied from %3</source>
        <translation>正在预先带入已编译的图：已从 %3 复制 %1 / %2</translation>
    </message>
    <message>
        <source>%1 from %2</source>
        <translation>%1，来自 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n graph(s): %1 there already, %2 copied</source>
        <translation>
            <numerusform>%n 个图：%1 个已存在，%2 个已复制</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1 not found</source>
        <translation>，%1 个未找到</translation>
    </message>
    <message>
        <source>, %1 left as they are (failed, locked or unfinished there)</source>
        <translation>，%1 个保持原样（在那里失败、被锁定或未完成）</translation>
    </message>
    <message>
        <source>, %1 could not be copied</source>
        <translation>，%1 个无法复制</translation>
    </message>
    <message>
        <source>; stopped</source>
        <translation>；已停止</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>ingot::CacheStats</name>
    <message>
        <source>0-1 d</source>
        <translation>0-1 天</translation>
    </message>
    <message>
        <source>1-7 d</source>
        <translation>1-7 天</translation>
    </message>
    <message>
        <source>7-30 d</source>
        <translation>7-30 天</translation>
    </message>
    <message>
        <source>30-90 d</source>
        <translation>30-90 天</translation>
    </message>
    <message>
        <source>90+ d</source>
        <translation>90+ 天</translation>
    </message>
</context>
<context>
    <name>ingot::CacheTreeModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Other items in the cache root</source>
        <translation>缓存根目录中的其他项</translation>
    </message>
    <message numerus="yes">
        <source>%n entries</source>
        <translation>
            <numerusform>%n 个条目</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n 个失败</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n locked</source>
        <translation>
            <numerusform>%n 个已锁定</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n unknown</source>
        <translation>
            <numerusform>%n 个未知</numerusform>
        </translation>
    </message>
    <message>
        <source>Files and folders at the top of the cache that are not compiler-version folders</source>
        <translation>缓存顶层中不属于编译器版本文件夹的文件和文件夹</translation>
    </message>
    <message>
        <source>Compiler version %1</source>
        <translation>编译器版本 %1</translation>
    </message>
    <message>
        <source>%1 · in transfer</source>
        <translation>%1 · 传输中</translation>
    </message>
</context>
<context>
    <name>ingot::CacheVerify</name>
    <message>
        <source>%1 bytes here, %2 in S3</source>
        <translation>本地 %1 字节，S3 中为 %2</translation>
    </message>
    <message>
        <source>cannot be read here: %1</source>
        <translation>无法在本地读取：%1</translation>
    </message>
    <message>
        <source>the file is shorter than it was</source>
        <translation>文件比原来短</translation>
    </message>
    <message>
        <source>the same size; S3&apos;s ETag %1 is of a shape Ingot cannot recompute (SSE-KMS, or another part size)</source>
        <translation>大小相同；S3 的 ETag %1 的格式 Ingot 无法重新计算（SSE-KMS，或分段大小不同）</translation>
    </message>
    <message>
        <source>ETag %1 in S3 is not the MD5 of the file here</source>
        <translation>S3 中的 ETag %1 不是本地文件的 MD5</translation>
    </message>
    <message>
        <source>%1 bytes here, %2 on the Hub</source>
        <translation>本地 %1 字节，Hub 上为 %2</translation>
    </message>
    <message>
        <source>sha256 %1 here, %2 on the Hub</source>
        <translation>本地 sha256 为 %1，Hub 上为 %2</translation>
    </message>
    <message>
        <source>git blob %1 here, %2 on the Hub</source>
        <translation>本地 git blob 为 %1，Hub 上为 %2</translation>
    </message>
    <message>
        <source>not there</source>
        <translation>远端不存在</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
</context>
<context>
    <name>ingot::ComparisonChart</name>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>Throughput (tokens/s)</source>
        <translation>吞吐量（tokens/s）</translation>
    </message>
    <message>
        <source>%1: no values</source>
        <translation>%1：无数值</translation>
    </message>
    <message>
        <source>%1: %2 at step %3</source>
        <translation>%1：第 %3 步时为 %2</translation>
    </message>
    <message>
        <source>%1: %2 at %3 s</source>
        <translation>%1：%3 秒时为 %2</translation>
    </message>
    <message>
        <source>by step</source>
        <translation>按步数</translation>
    </message>
    <message>
        <source>by seconds since each run started</source>
        <translation>按各运行开始后的秒数</translation>
    </message>
    <message>
        <source>No run has values of this metric.</source>
        <translation>没有运行包含此指标的数值。</translation>
    </message>
</context>
<context>
    <name>ingot::CompileLog</name>
    <message>
        <source>No graphs seen yet.</source>
        <translation>尚未看到任何计算图。</translation>
    </message>
    <message numerus="yes">
        <source>%n hit(s)</source>
        <translation>
            <numerusform>%n 个命中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n new</source>
        <translation>
            <numerusform>%n 个新图</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other flags</source>
        <translation>
            <numerusform>%n 个其他标志</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other compiler</source>
        <translation>
            <numerusform>%n 个其他编译器</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in another cache</source>
        <translation>
            <numerusform>%n 个在其他缓存中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n blocked</source>
        <translation>
            <numerusform>%n 个被阻塞</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n graph(s): %1</source>
        <translation>
            <numerusform>%n 个计算图：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>The job&apos;s log: &quot;Using a cached neff&quot; for this entry.</source>
        <translation>作业日志：此条目为“Using a cached neff”。</translation>
    </message>
    <message>
        <source>The job&apos;s log: &quot;Got a cached failed neff&quot; for this entry.</source>
        <translation>作业日志：此条目为“Got a cached failed neff”。</translation>
    </message>
</context>
<context>
    <name>ingot::Consolidate</name>
    <message>
        <source>%1: the plan does not add up (its shape, size or split); check the checkpoint again.</source>
        <translation>%1：计划不自洽（形状、大小或切分）；请重新检查该检查点。</translation>
    </message>
    <message>
        <source>%1 on tp rank %2 of pp rank %3 is not what the check found: the shards changed since. Check the checkpoint again.</source>
        <translation>pp rank %3 的 tp rank %2 上的 %1 与检查时的结果不一致：分片在检查之后发生了变化。请重新检查该检查点。</translation>
    </message>
    <message>
        <source>%1 differs between tp rank 0 and tp rank %2, though it should be replicated.</source>
        <translation>%1 在 tp rank 0 和 tp rank %2 上不一致，但它本应是复制的。</translation>
    </message>
    <message>
        <source>%1: %2 does not divide into %3 heads.</source>
        <translation>%1：%2 不能被均分为 %3 个头。</translation>
    </message>
    <message>
        <source>%1: the GQA head order does not name every head once.</source>
        <translation>%1：GQA 头顺序未恰好列出每个头一次。</translation>
    </message>
    <message>
        <source>Ran out of memory while writing %1.</source>
        <translation>写入 %1 时内存不足。</translation>
    </message>
    <message>
        <source>Stopped while writing %1: %2</source>
        <translation>写入 %1 时停止：%2</translation>
    </message>
    <message>
        <source>%1 already exists; choose another folder or allow overwriting.</source>
        <translation>%1 已存在；请选择其他文件夹或允许覆盖。</translation>
    </message>
    <message>
        <source>Cannot write the index %1: %2</source>
        <translation>无法写入索引 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a regular file.</source>
        <translation>%1 不是普通文件。</translation>
    </message>
    <message>
        <source>Cannot copy %1: %2</source>
        <translation>无法复制 %1：%2</translation>
    </message>
    <message>
        <source>%1 is there though the output is one file.</source>
        <translation>输出只有一个文件，但 %1 仍然存在。</translation>
    </message>
    <message>
        <source>No &quot;done&quot; marker in %1: the save may not have finished.</source>
        <translation>%1 中没有“done”标记：保存可能尚未完成。</translation>
    </message>
    <message>
        <source>%1 holds several safetensors files; only one per rank is expected.</source>
        <translation>%1 中有多个 safetensors 文件；每个 rank 应只有一个。</translation>
    </message>
    <message>
        <source>%1 holds no checkpoint.pt and no safetensors file.</source>
        <translation>%1 中既没有 checkpoint.pt，也没有 safetensors 文件。</translation>
    </message>
    <message>
        <source>tp rank %1, pp rank %2 appears twice.</source>
        <translation>tp rank %1、pp rank %2 出现了两次。</translation>
    </message>
    <message>
        <source>The names and metadata claim tp %1 x pp %2 ranks, more than the %3 Ingot reads; %4 shard files are there.</source>
        <translation>文件名和元数据声明有 tp %1 x pp %2 个 rank，超过了 Ingot 可读取的 %3 个；实际有 %4 个分片文件。</translation>
    </message>
    <message>
        <source>The shard of tp rank %1, pp rank %2 is missing.</source>
        <translation>缺少 tp rank %1、pp rank %2 的分片。</translation>
    </message>
    <message>
        <source>... and %1 more shards are missing (tp %2 x pp %3 expected, %4 found).</source>
        <translation>……另有 %1 个分片缺失（预期 tp %2 x pp %3，找到 %4 个）。</translation>
    </message>
    <message>
        <source>optimum-neuron (tensor_parallel_shards, checkpoint.pt)</source>
        <translation>optimum-neuron（tensor_parallel_shards、checkpoint.pt）</translation>
    </message>
    <message>
        <source>neuronx-distributed (shards/model/*.pt)</source>
        <translation>neuronx-distributed（shards/model/*.pt）</translation>
    </message>
    <message>
        <source>Ingot backend (tensor_parallel_shards, safetensors)</source>
        <translation>Ingot 后端（tensor_parallel_shards、safetensors）</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 不是文件夹。</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>the integer %1</source>
        <translation>整数 %1</translation>
    </message>
    <message>
        <source>the number %1</source>
        <translation>数值 %1</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>an unknown value</source>
        <translation>未知类型的值</translation>
    </message>
    <message>
        <source>an integer from %1 to %2</source>
        <translation>%1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>a non-empty string</source>
        <translation>非空字符串</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is missing.</source>
        <translation>%1：缺少“%2”。</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; must be %3, not %4.</source>
        <translation>%1：“%2”应为 %3，而不是 %4。</translation>
    </message>
    <message>
        <source>%1, parameter %2</source>
        <translation>%1，参数 %2</translation>
    </message>
    <message>
        <source>%1: not an object but %2.</source>
        <translation>%1：不是对象，而是 %2。</translation>
    </message>
    <message>
        <source>%1, the FusedLinearsSpec of %2</source>
        <translation>%1，%2 的 FusedLinearsSpec</translation>
    </message>
    <message>
        <source>&quot;column&quot;, &quot;row&quot;, 0 or 1</source>
        <translation>&quot;column&quot;、&quot;row&quot;、0 或 1</translation>
    </message>
    <message>
        <source>a list of names</source>
        <translation>名称列表</translation>
    </message>
    <message>
        <source>a list of sizes</source>
        <translation>大小列表</translation>
    </message>
    <message>
        <source>%1, the FusedLinearsSpec of %2: %3 linear_names but %4 original_dims.</source>
        <translation>%1，%2 的 FusedLinearsSpec：有 %3 个 linear_names，但有 %4 个 original_dims。</translation>
    </message>
    <message>
        <source>%1, the GQAQKVColumnParallelLinearSpec of %2</source>
        <translation>%1，%2 的 GQAQKVColumnParallelLinearSpec</translation>
    </message>
    <message>
        <source>%1: %2 attention heads and %3 key/value heads (x%4) do not divide over tp %5.</source>
        <translation>%1：%2 个注意力头和 %3 个 key/value 头（x%4）无法在 tp %5 上均分。</translation>
    </message>
    <message>
        <source>%1: a transformation spec of %2 is not a [class name, {fields}] pair.</source>
        <translation>%1：%2 的某个变换规格不是 [class name, {fields}] 对。</translation>
    </message>
    <message>
        <source>%1 with PEFT (%2)</source>
        <translation>带 PEFT 的 %1（%2）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1: &quot;model_weight_transformation_specs&quot; must be a list, not %2.</source>
        <translation>%1：“model_weight_transformation_specs”应为列表，而不是 %2。</translation>
    </message>
    <message>
        <source>%1: a transformation spec group is %2, not an object.</source>
        <translation>%1：某个变换规格组是 %2，而不是对象。</translation>
    </message>
    <message>
        <source>%1, a transformation spec group</source>
        <translation>%1，某个变换规格组</translation>
    </message>
    <message>
        <source>%1: the sharded_metadata of %2 is not a {kind, partition_dim} entry.</source>
        <translation>%1：%2 的 sharded_metadata 不是 {kind, partition_dim} 形式的条目。</translation>
    </message>
    <message>
        <source>%1: the sharded_metadata of %2 has no partition_dim from 0 to %3.</source>
        <translation>%1：%2 的 sharded_metadata 中没有 0 到 %3 之间的 partition_dim。</translation>
    </message>
    <message>
        <source>The partitioning metadata %1 is missing.</source>
        <translation>缺少切分元数据 %1。</translation>
    </message>
    <message>
        <source>The partitioning metadata %1 is not a regular file of at most %2 MiB.</source>
        <translation>切分元数据 %1 不是不超过 %2 MiB 的普通文件。</translation>
    </message>
    <message>
        <source>Cannot read the partitioning metadata %1: %2</source>
        <translation>无法读取切分元数据 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not valid JSON.</source>
        <translation>%1 不是有效的 JSON。</translation>
    </message>
    <message>
        <source>%1 has no &quot;parameters&quot; map.</source>
        <translation>%1 中没有“parameters”映射。</translation>
    </message>
    <message>
        <source>%1 holds a value of an unexpected type (%2).</source>
        <translation>%1 中包含类型不符合预期的值（%2）。</translation>
    </message>
    <message>
        <source>%1 has no sharded_metadata: cannot tell which parameters are split.</source>
        <translation>%1 中没有 sharded_metadata：无法判断哪些参数被切分。</translation>
    </message>
    <message>
        <source>cannot remove %1: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <source>folders nest deeper than %1 levels</source>
        <translation>文件夹嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>No output folder was given.</source>
        <translation>未指定输出文件夹。</translation>
    </message>
    <message>
        <source>%1 is a symbolic link (to %2). Ingot neither writes through a link nor replaces one: give the folder it points to, or another path.</source>
        <translation>%1 是符号链接（指向 %2）。Ingot 既不会通过链接写入，也不会替换链接：请指定它所指向的文件夹，或换一个路径。</translation>
    </message>
    <message>
        <source>%1 exists and is not a folder.</source>
        <translation>%1 已存在且不是文件夹。</translation>
    </message>
    <message>
        <source>%1 is the checkpoint&apos;s shards folder %2: writing there would destroy the shards being read.</source>
        <translation>%1 就是检查点的分片文件夹 %2：写入该位置会破坏正在读取的分片。</translation>
    </message>
    <message>
        <source>%1 lies inside the checkpoint&apos;s shards (%2): writing there could destroy the shards being read.</source>
        <translation>%1 位于检查点的分片目录内（%2）：写入该位置可能破坏正在读取的分片。</translation>
    </message>
    <message>
        <source>%1 holds the checkpoint being consolidated (%2): replacing it would destroy the shards being read.</source>
        <translation>%1 包含正在合并的检查点（%2）：替换它会破坏正在读取的分片。</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Cannot create a staging folder in %1: %2</source>
        <translation>无法在 %1 中创建暂存文件夹：%2</translation>
    </message>
    <message>
        <source>Cannot use the staging folder %1: %2</source>
        <translation>无法使用暂存文件夹 %1：%2</translation>
    </message>
    <message>
        <source>Cannot set the permissions of %1: %2</source>
        <translation>无法设置 %1 的权限：%2</translation>
    </message>
    <message>
        <source>Cannot flush %1 to disk: %2</source>
        <translation>无法将 %1 刷写到磁盘：%2</translation>
    </message>
    <message>
        <source>The staging folder %1 was replaced by something else while the output was written: nothing was moved into place.</source>
        <translation>写入输出期间，暂存文件夹 %1 被替换成了其他内容：未将任何内容移动到目标位置。</translation>
    </message>
    <message>
        <source>%1 is a symbolic link: Ingot does not replace links.</source>
        <translation>%1 是符号链接：Ingot 不会替换链接。</translation>
    </message>
    <message>
        <source>Cannot move the result into %1: %2</source>
        <translation>无法将结果移动到 %1：%2</translation>
    </message>
    <message>
        <source>Cannot replace %1: %2</source>
        <translation>无法替换 %1：%2</translation>
    </message>
    <message>
        <source>The old %1 could not be removed completely (%2); what is left of it is in %3.</source>
        <translation>无法完全删除旧的 %1（%2）；其剩余内容位于 %3。</translation>
    </message>
    <message>
        <source>Not supported yet: %1 (pp rank %2).</source>
        <translation>暂不支持：%1（pp rank %2）。</translation>
    </message>
    <message>
        <source>The GQA attention %1 misses some of its parameters in pp rank %2.</source>
        <translation>GQA 注意力层 %1 在 pp rank %2 中缺少部分参数。</translation>
    </message>
    <message>
        <source>%1: the GQA spec says tp %2, the shards tp %3.</source>
        <translation>%1：GQA 规格为 tp %2，而分片为 tp %3。</translation>
    </message>
    <message>
        <source>%1: GQA weights are not non-empty matrices (%2 %3, %4 %5 on tp rank 0).</source>
        <translation>%1：GQA 权重不是非空矩阵（tp rank 0 上为 %2 %3、%4 %5）。</translation>
    </message>
    <message>
        <source>%1: the GQA spec&apos;s sizes do not fit together: q_output_size_per_partition %2 for %3 heads over tp %4, kv_output_size_per_partition %5 for %6 key/value heads x%7.</source>
        <translation>%1：GQA 规格中的各项大小互相矛盾：q_output_size_per_partition 为 %2，对应 %3 个头、tp %4；kv_output_size_per_partition 为 %5，对应 %6 个 key/value 头 x%7。</translation>
    </message>
    <message>
        <source>%1: the GQA head layout (%2 heads, %3 key/value heads x%4, tp %5) is not one Ingot can put back in order.</source>
        <translation>%1：Ingot 无法还原此 GQA 头布局的顺序（%2 个头，%3 个 key/value 头 x%4，tp %5）。</translation>
    </message>
    <message>
        <source>%1: the GQA sizes overflow.</source>
        <translation>%1：GQA 大小溢出。</translation>
    </message>
    <message>
        <source>tp rank %1 of pp rank %2 holds other parameters than tp rank 0.</source>
        <translation>pp rank %2 的 tp rank %1 所含参数与 tp rank 0 不同。</translation>
    </message>
    <message>
        <source>%1 is in pp ranks %2 and %3 with different shapes or dtypes.</source>
        <translation>%1 同时出现在 pp rank %2 和 %3 中，但形状或 dtype 不同。</translation>
    </message>
    <message>
        <source>%1: its size along dim %2 overflows.</source>
        <translation>%1：其在维度 %2 上的大小溢出。</translation>
    </message>
    <message>
        <source>%1: partition_dim %2 does not fit its shape %3.</source>
        <translation>%1：partition_dim %2 与其形状 %3 不匹配。</translation>
    </message>
    <message>
        <source>%1: the pieces of shape %2 cannot be split over tp %3.</source>
        <translation>%1：形状为 %2 的各部分无法在 tp %3 上切分。</translation>
    </message>
    <message>
        <source>%1: dtype %2 on tp rank %3 but %4 on tp rank 0.</source>
        <translation>%1：tp rank %3 上的 dtype 为 %2，而 tp rank 0 上为 %4。</translation>
    </message>
    <message>
        <source>%1: tp rank %2 holds %3 along dim %4 but tp rank 0 holds %5: the partition sizes do not add up.</source>
        <translation>%1：tp rank %2 在维度 %4 上为 %3，而 tp rank 0 上为 %5：各分区大小对不上。</translation>
    </message>
    <message>
        <source>%1: shape %2 on tp rank %3 of pp rank %4, but the plan (from tp rank 0 and the metadata) expects %5.</source>
        <translation>%1：pp rank %4 的 tp rank %3 上形状为 %2，但计划（根据 tp rank 0 和元数据得出）预期为 %5。</translation>
    </message>
    <message>
        <source>%1: fuse_axis %2 does not fit its shape %3.</source>
        <translation>%1：fuse_axis %2 与其形状 %3 不匹配。</translation>
    </message>
    <message>
        <source>%1: the fused spec says tp %2, the shards tp %3.</source>
        <translation>%1：融合规格为 tp %2，而分片为 tp %3。</translation>
    </message>
    <message>
        <source>%1: a fused linear that is not split over the tp ranks (no partition_dim in the metadata).</source>
        <translation>%1：融合线性层未在各 tp rank 间切分（元数据中没有 partition_dim）。</translation>
    </message>
    <message>
        <source>%1: the fused size %2 is not a positive multiple of tp %3.</source>
        <translation>%1：融合后的大小 %2 不是 tp %3 的正整数倍。</translation>
    </message>
    <message>
        <source>%1: the fused sizes add up to %2 per rank, the shard holds %3 along dim %4.</source>
        <translation>%1：各融合部分的大小合计为每个 rank %2，但分片在维度 %4 上的大小为 %3。</translation>
    </message>
    <message>
        <source>%1: shape %2 (%3) is too large: its size does not fit in 64 bits.</source>
        <translation>%1：形状 %2（%3）过大：其大小超出 64 位范围。</translation>
    </message>
    <message>
        <source>The tensor name %1 is not valid UTF-8, which safetensors and torch.load need.</source>
        <translation>张量名 %1 不是有效的 UTF-8，而 safetensors 和 torch.load 都要求 UTF-8。</translation>
    </message>
    <message>
        <source>A tensor is named __metadata__, the name safetensors keeps for its header&apos;s metadata: it cannot be written.</source>
        <translation>有一个张量名为 __metadata__，这是 safetensors 为文件头元数据保留的名称：无法写入。</translation>
    </message>
    <message>
        <source>Two outputs would be named %1 (a parameter and a part of a fused or GQA one?).</source>
        <translation>会有两个输出同名为 %1（一个参数与某个融合参数或 GQA 参数的一部分重名？）。</translation>
    </message>
    <message>
        <source>The output&apos;s total size does not fit in 64 bits.</source>
        <translation>输出的总大小超出 64 位范围。</translation>
    </message>
    <message>
        <source>Ran out of memory while checking the checkpoint.</source>
        <translation>校验检查点时内存不足。</translation>
    </message>
    <message>
        <source>Stopped while checking the checkpoint: %1</source>
        <translation>校验检查点时已停止：%1</translation>
    </message>
    <message>
        <source>%1 holds no tensor %2 any more: the shards changed since they were checked. Check the checkpoint again.</source>
        <translation>%1 中已不再有张量 %2：分片在校验之后发生了变化。请重新校验检查点。</translation>
    </message>
    <message>
        <source>%1 in %2 is not one of the outputs (or is there twice).</source>
        <translation>%2 中的 %1 不是预期的输出之一（或重复出现）。</translation>
    </message>
    <message>
        <source>%1 in %2 reads back as %3 [%4], but %5 [%6] was written.</source>
        <translation>%2 中的 %1 读回为 %3 [%4]，但写入的是 %5 [%6]。</translation>
    </message>
    <message>
        <source>%1 in %2 does not match its sources.</source>
        <translation>%2 中的 %1 与其来源不一致。</translation>
    </message>
    <message>
        <source>%1: its __metadata__ does not say format &quot;pt&quot;, which transformers requires.</source>
        <translation>%1：其 __metadata__ 未声明 format &quot;pt&quot;，而 transformers 要求此格式。</translation>
    </message>
    <message>
        <source>%1 is missing from the output.</source>
        <translation>输出中缺少 %1。</translation>
    </message>
    <message>
        <source>The index %1 cannot be read: %2</source>
        <translation>无法读取索引 %1：%2</translation>
    </message>
    <message>
        <source>The index %1 is not valid JSON (empty or cut short?).</source>
        <translation>索引 %1 不是有效的 JSON（为空或被截断？）。</translation>
    </message>
    <message>
        <source>The index %1 has no weight_map.</source>
        <translation>索引 %1 中没有 weight_map。</translation>
    </message>
    <message>
        <source>The index %1 has no metadata.total_size.</source>
        <translation>索引 %1 中没有 metadata.total_size。</translation>
    </message>
    <message>
        <source>The index %1 maps %2 to something that is not a file name.</source>
        <translation>索引 %1 将 %2 映射到了一个不是文件名的值。</translation>
    </message>
    <message>
        <source>The index names %1, which is not in the output.</source>
        <translation>索引中列出了 %1，但输出中没有该文件。</translation>
    </message>
    <message>
        <source>The index puts %1 in %2, which does not hold it.</source>
        <translation>索引将 %1 指向 %2，但该文件中并没有它。</translation>
    </message>
    <message>
        <source>%1 holds %2, which the index does not map there.</source>
        <translation>%1 包含 %2，但索引并未将它映射到该文件。</translation>
    </message>
    <message>
        <source>The index says total_size %1, but its files hold %2 bytes of tensors.</source>
        <translation>索引中的 total_size 为 %1，但其文件中的张量共 %2 字节。</translation>
    </message>
    <message>
        <source>config.json is larger than 64 MiB: not a model configuration.</source>
        <translation>config.json 大于 64 MiB：不是模型配置文件。</translation>
    </message>
    <message>
        <source>config.json is not valid JSON.</source>
        <translation>config.json 不是有效的 JSON。</translation>
    </message>
    <message>
        <source>%1 has shape [%2] but config.json implies [%3].</source>
        <translation>%1 的形状为 [%2]，但按 config.json 应为 [%3]。</translation>
    </message>
    <message>
        <source>The checkpoint has %1 layers but config.json says %2.</source>
        <translation>检查点有 %1 层，但 config.json 中为 %2 层。</translation>
    </message>
    <message>
        <source>copied as it is</source>
        <translation>原样复制</translation>
    </message>
    <message>
        <source>replicated (from tp rank 0)</source>
        <translation>复制副本（取自 tp rank 0）</translation>
    </message>
    <message>
        <source>concatenated on dim %1</source>
        <translation>沿 dim %1 拼接</translation>
    </message>
    <message>
        <source>un-fused from %1, concatenated on dim %2</source>
        <translation>从 %1 拆分，沿 dim %2 拼接</translation>
    </message>
    <message>
        <source>un-fused from %1</source>
        <translation>从 %1 拆分</translation>
    </message>
    <message numerus="yes">
        <source>GQA query: %n head(s) put back in order</source>
        <translation>
            <numerusform>GQA query：%n 个 head 恢复原顺序</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>GQA key: %n head(s), ×%1 replication dropped</source>
        <translation>
            <numerusform>GQA key：%n 个 head，去掉 ×%1 的复制</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>GQA key: %n head(s)</source>
        <translation>
            <numerusform>GQA key：%n 个 head</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>GQA value: %n head(s), ×%1 replication dropped</source>
        <translation>
            <numerusform>GQA value：%n 个 head，去掉 ×%1 的复制</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>GQA value: %n head(s)</source>
        <translation>
            <numerusform>GQA value：%n 个 head</numerusform>
        </translation>
    </message>
    <message>
        <source>GQA output: heads put back in order</source>
        <translation>GQA output：各 head 恢复原顺序</translation>
    </message>
    <message>
        <source>Cannot read %1: the file is shorter than it was (truncated while being read?).</source>
        <translation>无法读取 %1：文件比原来短了（读取时被截断？）。</translation>
    </message>
    <message>
        <source>Cannot read %1 from %2: the file is shorter than it was (truncated while being read?).</source>
        <translation>无法从 %2 读取 %1：文件比原来短了（读取时被截断？）。</translation>
    </message>
    <message>
        <source>Cannot read %1 from %2: %3</source>
        <translation>无法从 %2 读取 %1：%3</translation>
    </message>
    <message>
        <source>%1: its gqa_qkv_metadata lacks the head counts or output projections, or holds them out of range.</source>
        <translation>%1：其 gqa_qkv_metadata 缺少头数或输出投影，或其值超出范围。</translation>
    </message>
    <message>
        <source>%1: the GQA name %2 of %3 is not in the same module.</source>
        <translation>%1：%3 的 GQA 名称 %2 不在同一模块中。</translation>
    </message>
    <message>
        <source>%1: %2 is not a GQA q/k/v name.</source>
        <translation>%1：%2 不是 GQA 的 q/k/v 名称。</translation>
    </message>
    <message>
        <source>%1: the GQA attention %2 lacks a q, k, v or output projection name.</source>
        <translation>%1：GQA 注意力 %2 缺少 q、k、v 或输出投影的名称。</translation>
    </message>
    <message>
        <source>%1 holds no sharded_metadata.</source>
        <translation>%1 中没有 sharded_metadata。</translation>
    </message>
    <message>
        <source>%1: the GQA spec says bias, but %2 is not in pp rank %3.</source>
        <translation>%1：GQA 规格声明有偏置，但 pp rank %3 中没有 %2。</translation>
    </message>
    <message>
        <source>concatenated on dim %1 in %2 strided blocks</source>
        <translation>按 %2 个步长块在维度 %1 上拼接</translation>
    </message>
    <message>
        <source>%1 is an xser checkpoint (its tensors are references), but the folder of its tensors, %2, is missing.</source>
        <translation>%1 是 xser 检查点（其张量为引用），但其张量文件夹 %2 不存在。</translation>
    </message>
    <message>
        <source>%1: the file of its tensor %2, %3, is missing.</source>
        <translation>%1：其张量 %2 的文件 %3 不存在。</translation>
    </message>
    <message>
        <source>%1 (tensor %2 of %3) does not hold one tensor.</source>
        <translation>%1（%3 的张量 %2）不是单个张量。</translation>
    </message>
    <message>
        <source>%1: its tensor claims more than %2 times the file&apos;s size (corrupt or hostile).</source>
        <translation>%1：其张量声称的大小超过文件大小的 %2 倍（已损坏或恶意）。</translation>
    </message>
    <message>
        <source>%1 is not what the check found: the shards changed since. Check the checkpoint again.</source>
        <translation>%1 与检查时不同：分片此后已被更改。请重新检查检查点。</translation>
    </message>
    <message>
        <source>Expert-parallel rank folders (ep size %1) are read in neuronx-distributed&apos;s layout only.</source>
        <translation>专家并行的 rank 文件夹（ep 大小 %1）只在 neuronx-distributed 布局中读取。</translation>
    </message>
    <message>
        <source>%1: some shard files name an ep rank and some do not.</source>
        <translation>%1：有的分片文件名带 ep rank，有的不带。</translation>
    </message>
    <message>
        <source>tp rank %1, pp rank %2, ep rank %3 appears twice.</source>
        <translation>tp rank %1、pp rank %2、ep rank %3 出现了两次。</translation>
    </message>
    <message>
        <source>The shard of tp rank %1, pp rank %2, ep rank %3 is missing.</source>
        <translation>缺少 tp rank %1、pp rank %2、ep rank %3 的分片。</translation>
    </message>
    <message>
        <source>%1: an expert parameter of shape %2 split on dim %3 cannot be stacked over ep ranks on dim 0.</source>
        <translation>%1：形状为 %2、在维度 %3 上切分的专家参数无法在维度 0 上按 ep rank 堆叠。</translation>
    </message>
    <message>
        <source>%1: its size along dim 0 overflows.</source>
        <translation>%1：其在维度 0 上的大小溢出。</translation>
    </message>
    <message>
        <source>%1 is missing on tp rank %2 of pp rank %3, ep rank %4.</source>
        <translation>%1 在 pp rank %3、ep rank %4 的 tp rank %2 上缺失。</translation>
    </message>
    <message>
        <source>experts of %1 ep ranks stacked on dim 0, replicated over tp</source>
        <translation>%1 个 ep rank 的专家在维度 0 上堆叠，在 tp 间复制</translation>
    </message>
    <message>
        <source>experts of %1 ep ranks stacked on dim 0, each %2</source>
        <translation>%1 个 ep rank 的专家在维度 0 上堆叠，每块%2</translation>
    </message>
    <message>
        <source>The adapter %1 has no adapter_config.json beside its shards in %2: PEFT cannot load it without one.</source>
        <translation>适配器 %1 在 %2 中的分片旁没有 adapter_config.json：缺少它 PEFT 无法加载。</translation>
    </message>
    <message>
        <source>%1, adapter %2</source>
        <translation>%1，适配器 %2</translation>
    </message>
    <message>
        <source>Not supported yet: LoRA layers in a model&apos;s shards (%1); consolidate the adapters.</source>
        <translation>尚不支持：模型分片中的 LoRA 层（%1）；请合并适配器。</translation>
    </message>
    <message>
        <source>shared %1 of %2, copied (from tp rank 0)</source>
        <translation>%2 的共享 %1，已复制（来自 tp rank 0）</translation>
    </message>
    <message>
        <source>%1: its LoRA matrices are not in the adapter any more.</source>
        <translation>%1：其 LoRA 矩阵已不在适配器中。</translation>
    </message>
    <message>
        <source>%1 is missing or not a readable file of at most 1 MiB.</source>
        <translation>%1 不存在，或不是不超过 1 MiB 的可读文件。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>not a JSON object.</source>
        <translation>不是 JSON 对象。</translation>
    </message>
    <message>
        <source>peft_type is not &quot;LORA&quot;.</source>
        <translation>peft_type 不是 &quot;LORA&quot;。</translation>
    </message>
    <message>
        <source>r is not a rank from 1 to 2^20.</source>
        <translation>r 不是 1 到 2^20 之间的秩。</translation>
    </message>
    <message>
        <source>lora_alpha is not a number.</source>
        <translation>lora_alpha 不是数字。</translation>
    </message>
    <message>
        <source>%1 is set, which merging does not do yet.</source>
        <translation>设置了 %1，合并尚不支持它。</translation>
    </message>
    <message>
        <source>%1 holds no model.safetensors (or model.safetensors.index.json): the base model to merge into.</source>
        <translation>%1 中没有 model.safetensors（或 model.safetensors.index.json）：即要合并进去的基础模型。</translation>
    </message>
    <message>
        <source>%1 in the adapter is not a LoRA matrix: merging it is not supported yet.</source>
        <translation>适配器中的 %1 不是 LoRA 矩阵：尚不支持合并它。</translation>
    </message>
    <message>
        <source>%1: the adapter holds only one of its two LoRA matrices.</source>
        <translation>%1：适配器只包含其两个 LoRA 矩阵中的一个。</translation>
    </message>
    <message>
        <source>%1 %2 (%3): lora_A %4 and lora_B %5 do not fit it (or are not F32, BF16 or F16).</source>
        <translation>%1 %2（%3）：lora_A %4 和 lora_B %5 与其不匹配（或不是 F32、BF16 或 F16）。</translation>
    </message>
    <message>
        <source>The adapter changes %1, which the base model does not hold.</source>
        <translation>适配器修改了 %1，但基础模型中没有它。</translation>
    </message>
    <message>
        <source>%1: the adapter&apos;s matrices are not what the check found; check again.</source>
        <translation>%1：适配器的矩阵与检查时不同；请重新检查。</translation>
    </message>
    <message>
        <source>LoRA merged: W + %1 · B·A</source>
        <translation>已合并 LoRA：W + %1 · B·A</translation>
    </message>
    <message>
        <source>%1 is not a readable index file of at most 64 MiB.</source>
        <translation>%1 不是不超过 64 MiB 的可读索引文件。</translation>
    </message>
    <message>
        <source>%1 is not a safetensors index (no weight_map).</source>
        <translation>%1 不是 safetensors 索引（没有 weight_map）。</translation>
    </message>
    <message>
        <source>%1 names %2 in a file that is not a plain file name beside it.</source>
        <translation>%1 将 %2 指向一个不是同目录下普通文件名的文件。</translation>
    </message>
    <message>
        <source>%1 maps %2 to %3, which does not hold it.</source>
        <translation>%1 将 %2 映射到 %3，但该文件中没有它。</translation>
    </message>
    <message>
        <source>%1 holds no model.safetensors (or model.safetensors.index.json).</source>
        <translation>%1 中没有 model.safetensors（或 model.safetensors.index.json）。</translation>
    </message>
    <message>
        <source>%1: its __metadata__ does not say format &quot;%2&quot;.</source>
        <translation>%1：其 __metadata__ 未声明格式 &quot;%2&quot;。</translation>
    </message>
    <message>
        <source>%1: partition_stride %2 does not divide its piece %3 along dim %4.</source>
        <translation>%1：partition_stride %2 不能整除其分片 %3 在维度 %4 上的大小。</translation>
    </message>
    <message>
        <source>%1: partition_stride %2 for the fusion of %3; optimum-neuron splits a fused linear with stride 1 or the number of linears it fuses (%4).</source>
        <translation>%1：%3 融合后的 partition_stride 为 %2；optimum-neuron 对融合线性层只用步长 1 或其融合的线性层个数（%4）切分。</translation>
    </message>
    <message>
        <source>%1 is a link that leads outside %2 (and not into the Hugging Face hub cache): Ingot does not copy what it leads to. Replace the link with the file itself.</source>
        <translation>%1 是一个指向 %2 之外（且不在 Hugging Face hub 缓存中）的链接：Ingot 不会复制它所指向的内容。请用文件本身替换该链接。</translation>
    </message>
    <message>
        <source>%1 is a broken link.</source>
        <translation>%1 是一个失效的链接。</translation>
    </message>
    <message>
        <source>%1 became a link while it was read: not copied.</source>
        <translation>%1 在读取过程中变成了链接：未复制。</translation>
    </message>
    <message>
        <source>%1 is missing.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>The staging folder %1 was replaced by something else as soon as it was created: nothing was written.</source>
        <translation>暂存文件夹 %1 刚创建就被替换成了别的东西：没有写入任何内容。</translation>
    </message>
    <message>
        <source>Cannot create %1: not a plain folder name.</source>
        <translation>无法创建 %1：不是普通的文件夹名称。</translation>
    </message>
    <message>
        <source>Cannot create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
    <message>
        <source>The staging folder %1 was replaced by something else while it was moved into place: %2 is not what this run wrote. Look at it before using it.</source>
        <translation>暂存文件夹 %1 在移动到位时被替换成了别的东西：%2 不是本次运行写入的内容。使用前请先检查它。</translation>
    </message>
    <message>
        <source>%1: its tensors claim more than %2 times the file&apos;s size (an xser file&apos;s tensor files included, each once): storages shared by too many names (corrupt or hostile).</source>
        <translation>%1：其张量声称的大小超过文件大小的 %2 倍（包括 xser 文件的各张量文件，每个只计一次）：存储被过多名称共享（文件损坏或恶意构造）。</translation>
    </message>
    <message>
        <source>%1 does not give num_attention_heads.</source>
        <translation>%1 未提供 num_attention_heads。</translation>
    </message>
    <message>
        <source>TorchTitan keeps the query and key projections&apos; rows in its own RoPE order: Ingot reorders them for transformers with the head counts of the model&apos;s config.json, and found none in %1 or the two folders above it. Put the model&apos;s Hugging Face config.json there.</source>
        <translation>TorchTitan 按其自身的 RoPE 顺序存放 query 和 key 投影的行：Ingot 会根据模型 config.json 中的头数将其重排为 transformers 的顺序，但在 %1 及其上两级文件夹中均未找到该文件。请将模型的 Hugging Face config.json 放到那里。</translation>
    </message>
    <message>
        <source>%1 is a link: Ingot reads a checkpoint&apos;s own files only. Replace the link with the file itself.</source>
        <translation>%1 是一个链接：Ingot 只读取检查点自身的文件。请用文件本身替换该链接。</translation>
    </message>
    <message>
        <source>%1 holds no model tensors.</source>
        <translation>%1 不包含任何模型张量。</translation>
    </message>
    <message>
        <source>%1 is not one of TorchTitan&apos;s Llama names Ingot maps to transformers&apos; names.</source>
        <translation>%1 不属于 Ingot 可映射为 transformers 名称的 TorchTitan Llama 名称。</translation>
    </message>
    <message>
        <source>%1 has the shape %2, which does not split into %3 heads of pairs of rows.</source>
        <translation>%1 的形状为 %2，无法拆分为 %3 个由成对行组成的头。</translation>
    </message>
    <message>
        <source>Two tensors would be named %1 in the output.</source>
        <translation>输出中会有两个张量都命名为 %1。</translation>
    </message>
    <message>
        <source>%1 is no longer the tensor that was planned: the checkpoint changed.</source>
        <translation>%1 已不是计划中的那个张量：检查点已更改。</translation>
    </message>
    <message>
        <source>%1 does not split into %2 heads.</source>
        <translation>%1 无法拆分为 %2 个头。</translation>
    </message>
    <message>
        <source>%1 is not a DCP checkpoint&apos;s metadata Ingot reads: %2</source>
        <translation>%1 不是 Ingot 可读取的 DCP 检查点元数据：%2</translation>
    </message>
    <message>
        <source>the properties of tensor %1 are malformed</source>
        <translation>张量 %1 的属性格式错误</translation>
    </message>
    <message>
        <source>tensor %1 has the dtype %2, which Ingot does not read</source>
        <translation>张量 %1 的 dtype 为 %2，Ingot 不支持读取</translation>
    </message>
    <message>
        <source>tensor %1 is not a dense (strided) tensor</source>
        <translation>张量 %1 不是稠密（strided）张量</translation>
    </message>
    <message>
        <source>the size of tensor %1 is malformed (more than %2 dims, or not whole numbers)</source>
        <translation>张量 %1 的大小格式错误（维度超过 %2 个，或不是整数）</translation>
    </message>
    <message>
        <source>tensor %1 is too large: its size does not fit in 64 bits</source>
        <translation>张量 %1 过大：其大小超出 64 位范围</translation>
    </message>
    <message>
        <source>tensor %1 has no list of chunks</source>
        <translation>张量 %1 没有分块列表</translation>
    </message>
    <message>
        <source>tensor %1 has %2 chunks, more than Ingot reads</source>
        <translation>张量 %1 有 %2 个分块，超出 Ingot 可读取的数量</translation>
    </message>
    <message>
        <source>a chunk of tensor %1 is malformed</source>
        <translation>张量 %1 的一个分块格式错误</translation>
    </message>
    <message>
        <source>a chunk of tensor %1 lies outside it (at %2 on dim %3, its size %4)</source>
        <translation>张量 %1 的一个分块超出其范围（位于第 %3 维的 %2 处，该维大小为 %4）</translation>
    </message>
    <message>
        <source>an entry of its storage data is malformed</source>
        <translation>其存储数据中的一个条目格式错误</translation>
    </message>
    <message>
        <source>the storage of %1 is malformed</source>
        <translation>%1 的存储格式错误</translation>
    </message>
    <message>
        <source>the storage of %1 names %2, which is not a file name in the checkpoint folder</source>
        <translation>%1 的存储指向 %2，它不是检查点文件夹中的文件名</translation>
    </message>
    <message>
        <source>the storage of %1 has a negative offset or length</source>
        <translation>%1 的存储包含负的偏移量或长度</translation>
    </message>
    <message>
        <source>the storage of %1 was transformed by a DCP stream extension (compression), which Ingot does not read</source>
        <translation>%1 的存储经过 DCP 流扩展（压缩）转换，Ingot 不支持读取</translation>
    </message>
    <message>
        <source>the storage data names the same piece of %1 twice</source>
        <translation>存储数据两次指向 %1 的同一部分</translation>
    </message>
    <message>
        <source>the chunks of tensor %1 hold more elements than it has</source>
        <translation>张量 %1 的分块所含元素多于该张量本身</translation>
    </message>
    <message>
        <source>its chunks are too many to check</source>
        <translation>其分块过多，无法检查</translation>
    </message>
    <message>
        <source>two chunks of tensor %1 overlap</source>
        <translation>张量 %1 的两个分块相互重叠</translation>
    </message>
    <message>
        <source>the chunks of tensor %1 leave a hole (they hold %2 of its %3 elements)</source>
        <translation>张量 %1 的分块留有空缺（仅包含其 %3 个元素中的 %2 个）</translation>
    </message>
    <message>
        <source>a chunk of tensor %1 has no storage</source>
        <translation>张量 %1 的一个分块没有存储</translation>
    </message>
    <message>
        <source>the value %1 has no storage</source>
        <translation>值 %1 没有存储</translation>
    </message>
    <message>
        <source>its storage data names pieces that no tensor or value has</source>
        <translation>其存储数据指向了不属于任何张量或值的部分</translation>
    </message>
    <message>
        <source>it does not hold a Metadata object</source>
        <translation>它不包含 Metadata 对象</translation>
    </message>
    <message>
        <source>it has no state_dict_metadata or storage_data</source>
        <translation>它没有 state_dict_metadata 或 storage_data</translation>
    </message>
    <message>
        <source>it lists more entries than Ingot reads</source>
        <translation>它列出的条目超出 Ingot 可读取的数量</translation>
    </message>
    <message>
        <source>an entry of its state_dict_metadata is not named by a string</source>
        <translation>其 state_dict_metadata 中有一个条目的名称不是字符串</translation>
    </message>
    <message>
        <source>%1 is listed twice</source>
        <translation>%1 被列出了两次</translation>
    </message>
    <message>
        <source>the entry %1 is neither a tensor nor bytes</source>
        <translation>条目 %1 既不是张量也不是字节数据</translation>
    </message>
    <message>
        <source>%1 is larger than %2 MiB: not a DCP checkpoint&apos;s metadata.</source>
        <translation>%1 大于 %2 MiB：不是 DCP 检查点的元数据。</translation>
    </message>
    <message>
        <source>%1 is refused: %2</source>
        <translation>%1 被拒绝：%2</translation>
    </message>
    <message>
        <source>%1 (bytes %2 to %3)</source>
        <translation>%1（第 %2 至 %3 字节）</translation>
    </message>
    <message>
        <source>it shrank while being read</source>
        <translation>它在读取过程中变小了</translation>
    </message>
    <message>
        <source>%1 names %2 data files, more than the %3 Ingot reads.</source>
        <translation>%1 指向 %2 个数据文件，超出 Ingot 可读取的 %3 个。</translation>
    </message>
    <message>
        <source>%1 lies past the end of its file (%2 bytes): truncated or corrupt.</source>
        <translation>%1 超出其文件末尾（%2 字节）：文件被截断或已损坏。</translation>
    </message>
    <message>
        <source>A chunk of tensor %1 claims more bytes than its item %2 holds: corrupt.</source>
        <translation>张量 %1 的一个分块声明的字节数超过其条目 %2 所含的字节数：文件已损坏。</translation>
    </message>
    <message>
        <source>Two items of %1 overlap (at byte %2): corrupt.</source>
        <translation>%1 中有两个条目相互重叠（位于第 %2 字节）：文件已损坏。</translation>
    </message>
    <message>
        <source>%1 does not hold a tensor (a piece of %2).</source>
        <translation>%1 不包含张量（%2 的一部分）。</translation>
    </message>
    <message>
        <source>%1 holds a %2 tensor of shape %3, not the piece of %4 the metadata describes.</source>
        <translation>%1 包含形状为 %3 的 %2 张量，而不是元数据所描述的 %4 的那一部分。</translation>
    </message>
    <message>
        <source>%1 is larger than %2 MiB.</source>
        <translation>%1 大于 %2 MiB。</translation>
    </message>
    <message>
        <source>Cannot read %1: the file is shorter than it was.</source>
        <translation>无法读取 %1：文件比之前短了。</translation>
    </message>
    <message>
        <source>PyTorch Distributed Checkpoint (.metadata, *.distcp)</source>
        <translation>PyTorch 分布式检查点 (.metadata, *.distcp)</translation>
    </message>
    <message>
        <source>No sharded checkpoint in %1: expected tensor_parallel_shards/%2/, shards/model/%3 or a DCP checkpoint&apos;s .metadata (in the folder, in checkpoint-N folders or in TorchTitan&apos;s checkpoint/step-N folders).</source>
        <translation>%1 中没有分片检查点：应为 tensor_parallel_shards/%2/、shards/model/%3 或 DCP 检查点的 .metadata（位于该文件夹中、checkpoint-N 文件夹中或 TorchTitan 的 checkpoint/step-N 文件夹中）。</translation>
    </message>
    <message numerus="yes">
        <source>%n data file(s)</source>
        <translation>
            <numerusform>%n 个数据文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>The optimizer&apos;s entry %1 is not named &lt;parameter&gt;.&lt;state&gt;.</source>
        <translation>优化器条目 %1 的名称不是 &lt;parameter&gt;.&lt;state&gt; 形式。</translation>
    </message>
    <message>
        <source>The optimizer state %1 belongs to no tensor of the model.</source>
        <translation>优化器状态 %1 不属于模型的任何张量。</translation>
    </message>
    <message>
        <source>Two optimizer tensors would be named %1 in the output.</source>
        <translation>输出中将有两个优化器张量同名为 %1。</translation>
    </message>
    <message>
        <source>The optimizer&apos;s entry %1 is not named &lt;parameter&gt;.&lt;key&gt;.</source>
        <translation>优化器条目 %1 的名称不是 &lt;parameter&gt;.&lt;key&gt; 形式。</translation>
    </message>
    <message>
        <source>The optimizer&apos;s value %1 belongs to no tensor of the model.</source>
        <translation>优化器值 %1 不属于模型的任何张量。</translation>
    </message>
    <message>
        <source>Ingot writes the optimizer state of PyTorch Distributed Checkpoints (DCP) only; the backend&apos;s XLA checkpoints carry theirs through a re-shard. Consolidate without the optimizer state.</source>
        <translation>Ingot 只写出 PyTorch Distributed Checkpoint（DCP）的优化器状态；该后端的 XLA 检查点会通过重新分片携带各自的优化器状态。请不带优化器状态进行合并。</translation>
    </message>
    <message>
        <source>%1 holds no optimizer state (no &quot;optim&quot; or &quot;optimizer&quot; entries beside the model): consolidate the weights only.</source>
        <translation>%1 不含优化器状态（模型旁没有 &quot;optim&quot; 或 &quot;optimizer&quot; 条目）：请仅合并权重。</translation>
    </message>
    <message>
        <source>The optimizer&apos;s value %1 cannot be read: %2</source>
        <translation>无法读取优化器值 %1：%2</translation>
    </message>
    <message>
        <source>The optimizer&apos;s value %1 is not a simple value (None, a bool, a number, a string, or a list of them): Ingot writes only those.</source>
        <translation>优化器值 %1 不是简单值（None、布尔值、数字、字符串或由它们组成的列表）：Ingot 只写出这些值。</translation>
    </message>
    <message>
        <source>%1 is no longer in the checkpoint: it changed.</source>
        <translation>%1 已不在检查点中：检查点已更改。</translation>
    </message>
    <message numerus="yes">
        <source>assembled from %n chunk(s)</source>
        <translation>
            <numerusform>由 %n 个分块拼接而成</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, rows reordered from TorchTitan&apos;s RoPE order (%n head(s))</source>
        <translation>
            <numerusform>%1，已将行从 TorchTitan 的 RoPE 顺序重排（%n 个头）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::ConsolidateWizard</name>
    <message>
        <source>Consolidate a checkpoint</source>
        <translation>合并检查点</translation>
    </message>
    <message>
        <source>Choose the checkpoint</source>
        <translation>选择检查点</translation>
    </message>
    <message>
        <source>The training output folder, a checkpoint-N folder, or the shards folder. Type or paste its path, browse, or drop a folder here.</source>
        <translation>训练输出文件夹、某个 checkpoint-N 文件夹或分片文件夹。可输入或粘贴路径、浏览，或将文件夹拖放到此处。</translation>
    </message>
    <message>
        <source>Path of a folder holding a sharded checkpoint</source>
        <translation>包含分片检查点的文件夹路径</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Checkpoint folder</source>
        <translation>检查点文件夹</translation>
    </message>
    <message>
        <source>Recent folders…</source>
        <translation>最近的文件夹…</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>Checkpoint:</source>
        <translation>检查点：</translation>
    </message>
    <message>
        <source>Check the checkpoint</source>
        <translation>校验检查点</translation>
    </message>
    <message>
        <source>Every shard is read and compared before anything is written. Below: every tensor the output will hold, and how it is put together from the ranks&apos; pieces.</source>
        <translation>写入任何内容之前，会读取并比对每个分片。下方列出输出将包含的每个张量，以及它如何由各 rank 的分片拼合而成。</translation>
    </message>
    <message>
        <source>Filter tensors (name, dtype, merge…)</source>
        <translation>筛选张量（名称、dtype、合并方式…）</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Where the consolidated model goes and in which format. Nothing is written before you press Consolidate.</source>
        <translation>合并后模型的保存位置和格式。按下“合并”之前不会写入任何内容。</translation>
    </message>
    <message>
        <source>Consolidate</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Replace the output folder if it exists</source>
        <translation>如果输出文件夹已存在，则替换它</translation>
    </message>
    <message>
        <source>Verify: read the output back and check every tensor against the shards</source>
        <translation>验证：读回输出，并将每个张量与分片逐一核对</translation>
    </message>
    <message>
        <source>safetensors (recommended)</source>
        <translation>safetensors（推荐）</translation>
    </message>
    <message>
        <source>PyTorch (pytorch_model.bin)</source>
        <translation>PyTorch（pytorch_model.bin）</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>Larger models are written as several files of at most this size, with an index, as transformers does (5 GB by default).</source>
        <translation>较大的模型会像 transformers 那样，写成多个不超过此大小的文件并附带索引（默认 5 GB）。</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Files of at most:</source>
        <translation>单个文件最大：</translation>
    </message>
    <message>
        <source>Output folder:</source>
        <translation>输出文件夹：</translation>
    </message>
    <message>
        <source>Consolidating</source>
        <translation>正在合并</translation>
    </message>
    <message>
        <source>Written into a temporary folder that becomes the output only once everything is in it: stopping leaves nothing behind.</source>
        <translation>先写入临时文件夹，全部写完后才成为输出文件夹：中途停止不会留下任何内容。</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stops the run and removes what it wrote so far</source>
        <translation>停止运行并删除目前已写入的内容</translation>
    </message>
    <message>
        <source>Stopping; nothing will be left behind…</source>
        <translation>正在停止；不会留下任何内容…</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>The consolidated model is ready to load with transformers.</source>
        <translation>合并后的模型已可用 transformers 加载。</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Copy code</source>
        <translation>复制代码</translation>
    </message>
    <message>
        <source>Load it in Python:</source>
        <translation>在 Python 中加载：</translation>
    </message>
    <message>
        <source>Looking…</source>
        <translation>正在查找…</translation>
    </message>
    <message>
        <source>Looking for checkpoints in %1…</source>
        <translation>正在 %1 中查找检查点…</translation>
    </message>
    <message>
        <source>No sharded checkpoint in %1.</source>
        <translation>%1 中没有分片检查点。</translation>
    </message>
    <message numerus="yes">
        <source>Found %n checkpoint(s). Layout: %1.</source>
        <translation>
            <numerusform>找到 %n 个检查点。布局：%1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopping; nothing will be left behind. The window closes when it is done…</source>
        <translation>正在停止，不会留下任何内容。完成后窗口将关闭…</translation>
    </message>
    <message numerus="yes">
        <source>Reading %n shard(s)…</source>
        <translation>
            <numerusform>正在读取 %n 个分片…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s): nothing can be written until they are fixed</source>
        <translation>
            <numerusform>%n 个问题：修复之前无法写入任何内容</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n output tensor(s), %1 to write, from %2.</source>
        <translation>
            <numerusform>%n 个输出张量，需写入 %1，来自 %2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n shard(s)</source>
        <translation>
            <numerusform>%n 个分片</numerusform>
        </translation>
    </message>
    <message>
        <source>Checking the output folder…</source>
        <translation>正在检查输出文件夹…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>%1 of %2 — %3 of %4 tensors — about %5 s left
%6</source>
        <translation>%1 / %2 — %3 / %4 个张量 — 剩余约 %5 秒
%6</translation>
    </message>
    <message>
        <source>Stopped. Nothing was written to %1. Go back to change the settings, or close the window.</source>
        <translation>已停止。未向 %1 写入任何内容。可返回修改设置，或关闭窗口。</translation>
    </message>
    <message>
        <source>Failed, and nothing was left behind: %1

Go back to change the settings, or close the window.</source>
        <translation>失败，未留下任何内容：%1

可返回修改设置，或关闭窗口。</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>已完成。</translation>
    </message>
    <message>
        <source>Verified: every tensor was read back and matches its shards.</source>
        <translation>已验证：每个张量都已读回，并与其分片一致。</translation>
    </message>
    <message>
        <source>Not verified.</source>
        <translation>未验证。</translation>
    </message>
    <message>
        <source>Not verified (verification was not asked for).</source>
        <translation>未验证（未要求验证）。</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n tensor(s)&lt;/b&gt; (%1) written to &lt;tt&gt;%2&lt;/tt&gt; in %3:</source>
        <translation>
            <numerusform>&lt;b&gt;%n 个张量&lt;/b&gt;（%1）已写入 &lt;tt&gt;%2&lt;/tt&gt;，用时 %3：</numerusform>
        </translation>
    </message>
    <message>
        <source>LoRA adapter %1: written as a folder PEFT loads (adapter_model.safetensors and its adapter_config.json). </source>
        <translation>LoRA 适配器 %1：写为 PEFT 可加载的文件夹（adapter_model.safetensors 及其 adapter_config.json）。</translation>
    </message>
    <message>
        <source>Also merge the adapter into its base model (written to the output folder&apos;s &quot;merged&quot;)</source>
        <translation>同时把适配器合并进其基础模型（写到输出文件夹的 &quot;merged&quot; 中）</translation>
    </message>
    <message>
        <source>The base model&apos;s folder (Hugging Face safetensors)</source>
        <translation>基础模型的文件夹（Hugging Face safetensors）</translation>
    </message>
    <message>
        <source>Base model:</source>
        <translation>基础模型：</translation>
    </message>
    <message numerus="yes">
        <source>Merged into the base model: %n tensor(s) (%1) in &lt;tt&gt;%2&lt;/tt&gt;.</source>
        <translation>
            <numerusform>已合并进基础模型：%n 个张量（%1），位于 &lt;tt&gt;%2&lt;/tt&gt;。</numerusform>
        </translation>
    </message>
    <message>
        <source>Merging into the base model failed, and left nothing in %1: %2</source>
        <translation>合并进基础模型失败，%1 中未留下任何内容：%2</translation>
    </message>
    <message>
        <source>Re-sharding</source>
        <translation>正在重新分片</translation>
    </message>
    <message>
        <source>A consolidated model (safetensors that transformers loads)</source>
        <translation>合并后的模型（transformers 可加载的 safetensors）</translation>
    </message>
    <message>
        <source>A checkpoint for another parallel layout (re-shard, to resume training)</source>
        <translation>另一种并行布局的检查点（重新分片，用于恢复训练）</translation>
    </message>
    <message>
        <source>Re-sharding writes the checkpoint the bundled training backend resumes from on another number of tensor- and pipeline-parallel ranks, its optimizer state included.</source>
        <translation>重新分片会写出内置训练后端可在另一数量的张量并行和流水线并行 rank 上恢复的检查点，包括其优化器状态。</translation>
    </message>
    <message>
        <source>Tensor parallel:</source>
        <translation>张量并行：</translation>
    </message>
    <message>
        <source>Pipeline parallel:</source>
        <translation>流水线并行：</translation>
    </message>
    <message>
        <source>Weights only (the resumed run starts its optimizer afresh)</source>
        <translation>仅权重（恢复的运行将重新开始优化器）</translation>
    </message>
    <message>
        <source>New layout:</source>
        <translation>新布局：</translation>
    </message>
    <message>
        <source>Write:</source>
        <translation>写出：</translation>
    </message>
    <message>
        <source>Re-shard</source>
        <translation>重新分片</translation>
    </message>
    <message>
        <source>The new layout, and where its checkpoint goes. Nothing is written before you press Re-shard.</source>
        <translation>新布局及其检查点的位置。按下“重新分片”之前不会写入任何内容。</translation>
    </message>
    <message>
        <source>Cannot: %1</source>
        <translation>无法进行：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s) and their optimizer state (step %1), split for tp=%2 pp=%3.</source>
        <translation>
            <numerusform>%n 个张量及其优化器状态（第 %1 步），按 tp=%2 pp=%3 切分。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s), split for tp=%1 pp=%2.</source>
        <translation>
            <numerusform>%n 个张量，按 tp=%1 pp=%2 切分。</numerusform>
        </translation>
    </message>
    <message>
        <source>The optimizer state goes with it (step %1).</source>
        <translation>优化器状态一并写出（第 %1 步）。</translation>
    </message>
    <message>
        <source>Weights only: the resumed run starts its optimizer afresh.</source>
        <translation>仅权重：恢复的运行将重新开始优化器。</translation>
    </message>
    <message>
        <source>Verified: every part was read back, and the new shards plan into the source&apos;s tensors.</source>
        <translation>已校验：每个部分都已读回，新分片可规划为源检查点的张量。</translation>
    </message>
    <message>
        <source>The checkpoint is ready for the bundled training backend to resume from.</source>
        <translation>检查点已就绪，内置训练后端可从中恢复。</translation>
    </message>
    <message>
        <source>Resume training with these settings (and the same global batch):</source>
        <translation>使用以下设置恢复训练（并保持相同的全局批大小）：</translation>
    </message>
    <message>
        <source>%1, LoRA adapters %2</source>
        <translation>%1，LoRA 适配器 %2</translation>
    </message>
    <message>
        <source>the output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message numerus="yes">
        <source>%n LoRA adapter(s), each written as a folder PEFT loads (adapter_model.safetensors and its adapter_config.json): the default one in the output folder, the others in a folder of their name below it. </source>
        <translation>
            <numerusform>%n 个 LoRA 适配器，每个写为 PEFT 可加载的文件夹（adapter_model.safetensors 及其 adapter_config.json）：默认适配器位于输出文件夹，其余位于其下以各自名称命名的文件夹。</numerusform>
        </translation>
    </message>
    <message>
        <source>Checking the layout…</source>
        <translation>正在检查布局…</translation>
    </message>
    <message numerus="yes">
        <source>%n rank folder(s)</source>
        <translation>
            <numerusform>%n 个 rank 文件夹</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n tensor(s)&lt;/b&gt; (%1) written to &lt;tt&gt;%2&lt;/tt&gt; for tp=%3 pp=%4, in %5.</source>
        <translation>
            <numerusform>&lt;b&gt;%n 个张量&lt;/b&gt;（%1）已写入 &lt;tt&gt;%2&lt;/tt&gt;，tp=%3 pp=%4，用时 %5。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — %2, %3</source>
        <translation>%1 — %2，%3</translation>
    </message>
    <message>
        <source>%1 — %2, %3 (incomplete)</source>
        <translation>%1 — %2，%3（不完整）</translation>
    </message>
    <message>
        <source>Also write the optimizer state (optimizer.safetensors and optimizer_param_groups.json)</source>
        <translation>同时写出优化器状态（optimizer.safetensors 和 optimizer_param_groups.json）</translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s) of the optimizer (%1), named after the model&apos;s parameters, and its settings as JSON.</source>
        <translation>
            <numerusform>优化器的 %n 个张量（%1），按模型参数命名，以及其设置（JSON 格式）。</numerusform>
        </translation>
    </message>
    <message>
        <source>optimizer.safetensors (if asked for)</source>
        <translation>optimizer.safetensors（若选择写出）</translation>
    </message>
    <message numerus="yes">
        <source>It also holds the optimizer state: %n tensor(s) (%1), written on request (next page).</source>
        <translation>
            <numerusform>其中还包含优化器状态：%n 个张量（%1），可按需写出（见下一页）。</numerusform>
        </translation>
    </message>
    <message>
        <source>With the optimizer state: optimizer.safetensors (each tensor named after its parameter, e.g. model.norm.weight.exp_avg) and its settings in optimizer_param_groups.json.</source>
        <translation>含优化器状态：optimizer.safetensors（每个张量按其参数命名，例如 model.norm.weight.exp_avg），其设置位于 optimizer_param_groups.json。</translation>
    </message>
</context>
<context>
    <name>ingot::ConsolidationRequest</name>
    <message>
        <source>no checkpoint named %1</source>
        <translation>没有名为 %1 的检查点</translation>
    </message>
    <message>
        <source>Adapter %1: %2</source>
        <translation>适配器 %1：%2</translation>
    </message>
    <message>
        <source>No output folder: name one.</source>
        <translation>没有输出文件夹：请指定一个。</translation>
    </message>
    <message>
        <source>Choose another folder.</source>
        <translation>请选择其他文件夹。</translation>
    </message>
    <message>
        <source>%1 already exists; choose another folder or allow replacing it.</source>
        <translation>%1 已存在；请选择其他文件夹或允许替换它。</translation>
    </message>
    <message>
        <source>Not enough space for %1: it needs %2, and %3 is free there. Free some space, or choose a folder on another file system.</source>
        <translation>%1 空间不足：需要 %2，而该处可用空间为 %3。请释放一些空间，或选择其他文件系统上的文件夹。</translation>
    </message>
    <message>
        <source>Needs %1; %2 free there.</source>
        <translation>需要 %1；该处可用空间为 %2。</translation>
    </message>
    <message>
        <source>Not enough space.</source>
        <translation>空间不足。</translation>
    </message>
    <message>
        <source>The folder exists: allow replacing it, or choose another.</source>
        <translation>文件夹已存在：请允许替换它，或选择其他文件夹。</translation>
    </message>
    <message>
        <source>No checkpoint was chosen.</source>
        <translation>未选择检查点。</translation>
    </message>
    <message>
        <source>%1 is a model folder, not a sharded checkpoint: it can be re-sharded, not consolidated.</source>
        <translation>%1 是模型文件夹，而不是分片检查点：它可以重新分片，但不能合并。</translation>
    </message>
    <message>
        <source>The base model cannot be merged into: %1</source>
        <translation>无法合并到基础模型：%1</translation>
    </message>
    <message>
        <source>Needs %1 (%2 of it the merged model); %3 free there.</source>
        <translation>需要 %1（其中 %2 用于合并后的模型）；该位置可用空间为 %3。</translation>
    </message>
</context>
<context>
    <name>ingot::DBusNotifications</name>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
</context>
<context>
    <name>ingot::EmptyStateWidget</name>
    <message>
        <source>Add cache folder…</source>
        <translation>添加缓存文件夹…</translation>
    </message>
    <message>
        <source>Open sample cache</source>
        <translation>打开示例缓存</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>重新查找</translation>
    </message>
    <message>
        <source>Writes a small, realistic compile cache (sparse files, a few kB on disk) so you can try every feature: states, failures, locks, charts and maintenance.</source>
        <translation>写入一个小型但逼真的编译缓存（稀疏文件，仅占几 kB 磁盘空间），方便试用所有功能：状态、失败、锁、图表和维护。</translation>
    </message>
</context>
<context>
    <name>ingot::EntryFiles</name>
    <message>
        <source>&quot;%1&quot; is not a cache entry (neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;).</source>
        <translation>“%1”不是缓存条目（neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;）。</translation>
    </message>
    <message>
        <source>Cannot open the cache folder %1: %2.</source>
        <translation>无法打开缓存文件夹 %1：%2。</translation>
    </message>
    <message>
        <source>%1: its compiler-version folder or the entry is a link (or not a folder); links are never followed.</source>
        <translation>%1：其编译器版本文件夹或该条目本身是链接（或不是文件夹）；从不跟随链接。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2.</source>
        <translation>无法打开 %1：%2。</translation>
    </message>
    <message>
        <source>Folders nested too deep in %1.</source>
        <translation>%1 中的文件夹嵌套过深。</translation>
    </message>
    <message>
        <source>Cannot read the folder %1: %2.</source>
        <translation>无法读取文件夹 %1：%2。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <source>%1 is not a regular file (a folder, device, fifo or socket): not sent.</source>
        <translation>%1 不是普通文件（是文件夹、设备、FIFO 或套接字）：未发送。</translation>
    </message>
    <message>
        <source>%1 is a broken link: not sent.</source>
        <translation>%1 是失效的链接：未发送。</translation>
    </message>
    <message>
        <source>%1 is a link that does not lead to a regular file: not sent.</source>
        <translation>%1 是不指向普通文件的链接：未发送。</translation>
    </message>
    <message>
        <source>%1 became a link while it was checked: not sent.</source>
        <translation>%1 在检查期间变成了链接：未发送。</translation>
    </message>
    <message>
        <source>%1 does not lead to a regular file: not sent.</source>
        <translation>%1 不指向普通文件：未发送。</translation>
    </message>
    <message>
        <source>%1 links outside the cache, not into the Hugging Face hub cache; Ingot does not follow it</source>
        <translation>%1 链接到缓存之外，且不指向 Hugging Face hub 缓存；Ingot 不会跟随它</translation>
    </message>
</context>
<context>
    <name>ingot::EventNotifications</name>
    <message>
        <source>It exited with status %1.</source>
        <translation>退出状态为 %1。</translation>
    </message>
    <message>
        <source>Step %1 of %2.</source>
        <translation>第 %1 步，共 %2 步。</translation>
    </message>
    <message>
        <source>Step %1.</source>
        <translation>第 %1 步。</translation>
    </message>
    <message>
        <source>Last loss %1.</source>
        <translation>最近损失 %1。</translation>
    </message>
    <message>
        <source>Job finished: %1</source>
        <translation>作业已完成：%1</translation>
    </message>
    <message>
        <source>It ended without saying why; its logs may tell.</source>
        <translation>作业已结束但未说明原因；可查看其日志。</translation>
    </message>
    <message>
        <source>Job failed: %1</source>
        <translation>作业失败：%1</translation>
    </message>
    <message>
        <source>It left Slurm&apos;s queue.</source>
        <translation>已离开 Slurm 队列。</translation>
    </message>
    <message>
        <source>It left Slurm&apos;s queue and runs on %1.</source>
        <translation>已离开 Slurm 队列，正在 %1 上运行。</translation>
    </message>
    <message>
        <source>Job running: %1</source>
        <translation>作业运行中：%1</translation>
    </message>
    <message>
        <source>Job stalled: %1</source>
        <translation>作业停滞：%1</translation>
    </message>
    <message>
        <source>Transfer done</source>
        <translation>传输完成</translation>
    </message>
    <message>
        <source>Transfer ended with failed entries</source>
        <translation>传输结束，有失败的条目</translation>
    </message>
    <message>
        <source>Transfer cancelled</source>
        <translation>传输已取消</translation>
    </message>
    <message>
        <source>Transfer failed</source>
        <translation>传输失败</translation>
    </message>
    <message>
        <source>Entries done: %1 of %2, to %3.</source>
        <translation>已完成条目：%1 / %2，目标：%3。</translation>
    </message>
    <message>
        <source>Consolidation done</source>
        <translation>合并完成</translation>
    </message>
    <message>
        <source>Consolidation failed</source>
        <translation>合并失败</translation>
    </message>
    <message>
        <source>Output: %1</source>
        <translation>输出：%1</translation>
    </message>
</context>
<context>
    <name>ingot::Explain</name>
    <message>
        <source>The cache does not hold this entry&apos;s HLO, so no other graph can be compared with it.</source>
        <translation>缓存中没有此条目的 HLO，因此无法与其他计算图比较。</translation>
    </message>
    <message>
        <source>This entry&apos;s HLO cannot be read: %1</source>
        <translation>无法读取此条目的 HLO：%1</translation>
    </message>
    <message>
        <source>Hit</source>
        <translation>命中</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>被阻塞</translation>
    </message>
    <message>
        <source>In another cache</source>
        <translation>在其他缓存中</translation>
    </message>
    <message>
        <source>Other flags</source>
        <translation>其他标志</translation>
    </message>
    <message>
        <source>Other compiler</source>
        <translation>其他编译器</translation>
    </message>
    <message>
        <source>New graph</source>
        <translation>新计算图</translation>
    </message>
    <message>
        <source>the entry has no model.hlo_module.pb</source>
        <translation>该条目没有 model.hlo_module.pb</translation>
    </message>
    <message>
        <source>%1 is over the limit of %2 MiB</source>
        <translation>%1 超过了 %2 MiB 的上限</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>the entry has no compile_flags.json</source>
        <translation>该条目没有 compile_flags.json</translation>
    </message>
    <message>
        <source>An unfinished entry is there (%1): the compiler compiles it again.</source>
        <translation>那里有一个未完成的条目（%1）：编译器会重新编译它。</translation>
    </message>
    <message>
        <source>%1 could not be asked: %2</source>
        <translation>无法询问 %1：%2</translation>
    </message>
    <message>
        <source>Hit: %1 is compiled (SUCCESS) in %2; a job that looks there does not compile it.</source>
        <translation>命中：%1 在 %2 中已编译（SUCCESS）；在那里查找的作业不会编译它。</translation>
    </message>
    <message>
        <source>Blocked: %1 is FAILED in %2; the compiler will not retry it, and the job fails on it.</source>
        <translation>被阻塞：%1 在 %2 中为 FAILED；编译器不会重试，作业会因此失败。</translation>
    </message>
    <message>
        <source>Blocked: %1 is LOCKED in %2 and a neuronx-cc process runs there: another compile of it may be under way.</source>
        <translation>被阻塞：%1 在 %2 中为 LOCKED，且那里有 neuronx-cc 进程在运行：可能正在进行另一次编译。</translation>
    </message>
    <message>
        <source>Blocked: %1 is LOCKED in %2 but no compiler runs there: a stale lock left by a killed job.</source>
        <translation>被阻塞：%1 在 %2 中为 LOCKED，但那里没有编译器在运行：这是被终止的作业留下的陈旧锁。</translation>
    </message>
    <message>
        <source>In another cache: %1 is compiled in %2, not in %3 where the job looked.</source>
        <translation>在其他缓存中：%1 已在 %2 中编译，而不在作业查找的 %3 中。</translation>
    </message>
    <message>
        <source>Other flags: the same graph is in %1 as %2, compiled with other flags.</source>
        <translation>其他标志：同一计算图以 %2 存在于 %1 中，使用了其他编译标志。</translation>
    </message>
    <message>
        <source>Other compiler: %1 is in %2 under %3, not under %4.</source>
        <translation>其他编译器：%1 位于 %2 的 %3 下，而不在 %4 下。</translation>
    </message>
    <message>
        <source>New graph: nothing close to %1 is in %2.</source>
        <translation>新计算图：%2 中没有与 %1 相近的条目。</translation>
    </message>
    <message>
        <source>New graph: the nearest graph of the same name in %1 is %2.</source>
        <translation>新计算图：%1 中同名最接近的计算图是 %2。</translation>
    </message>
    <message>
        <source>Cache: %1</source>
        <translation>缓存：%1</translation>
    </message>
    <message>
        <source>Chosen by: %1</source>
        <translation>选择依据：%1</translation>
    </message>
    <message>
        <source>This key there: absent</source>
        <translation>此键在那里：不存在</translation>
    </message>
    <message>
        <source>This key there: %1, written by this job&apos;s compile</source>
        <translation>此键在那里：%1，由本作业的编译写入</translation>
    </message>
    <message>
        <source>This key there: %1</source>
        <translation>此键在那里：%1</translation>
    </message>
    <message>
        <source>Compiler versions: %1 (wanted) and %2 (held)</source>
        <translation>编译器版本：%1（所需）和 %2（已有）</translation>
    </message>
    <message>
        <source>Flags of this key: %1</source>
        <translation>此键的标志：%1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Flags of %1: %2</source>
        <translation>%1 的标志：%2</translation>
    </message>
    <message>
        <source>The flags of this key are unknown: no entry with flags hash %1 is in the cache.</source>
        <translation>此键的标志未知：缓存中没有标志哈希为 %1 的条目。</translation>
    </message>
    <message>
        <source>Changed: %1</source>
        <translation>变化：%1</translation>
    </message>
    <message>
        <source>Wait for the running compile, or stop it.</source>
        <translation>等待正在运行的编译，或停止它。</translation>
    </message>
    <message>
        <source>Pull or copy the entry from %1 into %2, or point the job at that cache.</source>
        <translation>将条目从 %1 拉取或复制到 %2，或让作业使用那个缓存。</translation>
    </message>
    <message>
        <source>Run with the same NEURON_CC_FLAGS as the entry that is there to reuse it.</source>
        <translation>使用与现有条目相同的 NEURON_CC_FLAGS 运行，即可复用它。</translation>
    </message>
    <message>
        <source>Use the compiler version that made the cached entry, or precompile with this one.</source>
        <translation>使用生成该缓存条目的编译器版本，或用此版本预编译。</translation>
    </message>
    <message>
        <source>Clear the lock once it is older than any compile still running could be (Local cache → Clear locks with an age, or `ingot-cli cache clear-locks --older-than 2h`): whether a compile holds an S3 cache&apos;s lock cannot be seen, so only locks older than the age given are removed.</source>
        <translation>等锁的时长超过任何仍在运行的编译可能用的时间后再清除它（本地缓存 → 按时长清除锁，或 `ingot-cli cache clear-locks --older-than 2h`）：无法看出某个编译是否持有 S3 缓存的锁，因此只会清除早于所给时长的锁。</translation>
    </message>
    <message>
        <source>Remove the failed entry (Cache → Delete failed entries…, or `ingot-cli cache clean-failed`), or add --retry_failed_compilation to NEURON_CC_FLAGS.</source>
        <translation>删除失败的条目（缓存 → 删除失败条目…，或 `ingot-cli cache clean-failed`），或在 NEURON_CC_FLAGS 中加入 --retry_failed_compilation。</translation>
    </message>
    <message>
        <source>Clear the stale lock (Cache → Clear stale locks…, or `ingot-cli cache clear-locks`).</source>
        <translation>清除陈旧的锁（缓存 → 清除过期锁…，或 `ingot-cli cache clear-locks`）。</translation>
    </message>
</context>
<context>
    <name>ingot::FlagText</name>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>全选</translation>
    </message>
</context>
<context>
    <name>ingot::FleetGc</name>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>The same cache as %1: planned there.</source>
        <translation>与 %1 是同一个缓存：已在那里规划。</translation>
    </message>
    <message numerus="yes">
        <source>no answer in %n seconds</source>
        <translation>
            <numerusform>%n 秒内无响应</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelled before this place</source>
        <translation>在处理此位置之前已取消</translation>
    </message>
</context>
<context>
    <name>ingot::FleetGcPanel</name>
    <message>
        <source>planned</source>
        <translation>已规划</translation>
    </message>
    <message>
        <source>policies do not apply: %1</source>
        <translation>策略不适用：%1</translation>
    </message>
    <message>
        <source>not reached: %1</source>
        <translation>未能访问：%1</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… 另有 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Pre&amp;view on all places</source>
        <translation>在所有位置预览(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>应用(&amp;A)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Run this policy every &amp;day</source>
        <translation>每天运行此策略(&amp;D)</translation>
    </message>
    <message>
        <source>What the chosen policy would remove in each place, and the total: nothing is removed</source>
        <translation>所选策略在每个位置将移除的内容及总计：不会实际移除任何内容</translation>
    </message>
    <message>
        <source>Remove what the preview lists, each entry checked again right before it goes</source>
        <translation>移除预览中列出的内容，每个条目在移除前都会再次检查</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Frees</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>Keeps</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Preview of the policy on every place</source>
        <translation>策略在所有位置上的预览</translation>
    </message>
    <message>
        <source>Choose a saved policy first (New… makes one).</source>
        <translation>请先选择一个已保存的策略（“新建…”可创建一个）。</translation>
    </message>
    <message>
        <source>Reading every place…</source>
        <translation>正在读取所有位置…</translation>
    </message>
    <message>
        <source>Previewing policy %1 on every place…</source>
        <translation>正在所有位置上预览策略 %1…</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %n entries</source>
        <translation>
            <numerusform>%n 个条目，共 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n kept</source>
        <translation>
            <numerusform>保留 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Policy %1 frees %2 in %n entries</source>
        <translation>
            <numerusform>策略 %1 可释放 %n 个条目，共 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> over %n place(s)</source>
        <translation>
            <numerusform> 分布在 %n 个位置</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n not reached</source>
        <translation>
            <numerusform>；%n 个位置未能访问</numerusform>
        </translation>
    </message>
    <message>
        <source>. Apply removes them.</source>
        <translation>。点击“应用”将其移除。</translation>
    </message>
    <message>
        <source>. Nothing to remove.</source>
        <translation>。没有可移除的内容。</translation>
    </message>
    <message>
        <source>Applying policy %1…</source>
        <translation>正在应用策略 %1…</translation>
    </message>
    <message>
        <source>(not logged: %1)</source>
        <translation>（未记录到日志：%1）</translation>
    </message>
    <message>
        <source>%1 freed</source>
        <translation>已释放 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n removed</source>
        <translation>
            <numerusform>已移除 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n kept (changed since the preview)</source>
        <translation>
            <numerusform>，保留 %n 个（预览后已更改）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n failed</source>
        <translation>
            <numerusform>，%n 个失败</numerusform>
        </translation>
    </message>
    <message>
        <source>Done: %1.</source>
        <translation>完成：%1。</translation>
    </message>
    <message>
        <source>Last scheduled run: %1</source>
        <translation>上次计划运行：%1</translation>
    </message>
    <message>
        <source>Runs every day; it has not run yet.</source>
        <translation>每天运行；尚未运行过。</translation>
    </message>
    <message>
        <source>Installing the timer…</source>
        <translation>正在安装定时器…</translation>
    </message>
    <message>
        <source>Removing the timer…</source>
        <translation>正在移除定时器…</translation>
    </message>
</context>
<context>
    <name>ingot::FleetModel</name>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>TorchNeuron</source>
        <translation>TorchNeuron</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>S3</source>
        <translation>S3</translation>
    </message>
    <message>
        <source>Hub repo</source>
        <translation>Hub 仓库</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <source>not read yet</source>
        <translation>尚未读取</translation>
    </message>
    <message numerus="yes">
        <source>%1 (+%n)</source>
        <translation>
            <numerusform>%1 (+%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1
Known as: %2</source>
        <translation>%1
又名：%2</translation>
    </message>
    <message>
        <source>%1
Read at %2</source>
        <translation>%1
读取于 %2</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Locked</source>
        <translation>已锁定</translation>
    </message>
    <message>
        <source>Compilers</source>
        <translation>编译器</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>ingot::FleetPage</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Read every place again (F5)</source>
        <translation>重新读取所有位置 (F5)</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>Show the selected place on its own page: a cache on the Local cache page, a Hub repo on the Hub page</source>
        <translation>在对应页面中显示所选位置：缓存显示在“本地缓存”页，Hub 仓库显示在 Hub 页</translation>
    </message>
    <message>
        <source>Places</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Cache policies</source>
        <translation>缓存策略</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>&amp;New…</source>
        <translation>新建(&amp;N)…</translation>
    </message>
    <message>
        <source>A new cache policy: what each cache keeps (as ingot-cli cache policy set)</source>
        <translation>新建缓存策略：规定每个缓存保留哪些内容（同 ingot-cli cache policy set）</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <source>Change the chosen policy</source>
        <translation>修改所选策略</translation>
    </message>
    <message>
        <source>&amp;Policy:</source>
        <translation>策略(&amp;P)：</translation>
    </message>
    <message>
        <source>Reading the places Ingot knows…</source>
        <translation>正在读取 Ingot 已知的位置…</translation>
    </message>
    <message numerus="yes">
        <source>%n place(s)</source>
        <translation>
            <numerusform>%n 个位置</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %1 in %n entries</source>
        <translation>
            <numerusform> · %n 个条目，共 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n reading</source>
        <translation>
            <numerusform> · %n 个正在读取</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n not read</source>
        <translation>
            <numerusform> · %n 个未读取</numerusform>
        </translation>
    </message>
    <message>
        <source>The log of policy runs cannot be read: %1</source>
        <translation>无法读取策略运行日志：%1</translation>
    </message>
    <message>
        <source>No policy has run yet.</source>
        <translation>尚无策略运行过。</translation>
    </message>
    <message>
        <source>Last run: %1, policy %2 (%3): %4.</source>
        <translation>上次运行：%1，策略 %2（%3）：%4。</translation>
    </message>
    <message>
        <source>No policy saved yet: ingot-cli cache policy set NAME --max-size 200GB --unused-days 30 --failed</source>
        <translation>尚未保存任何策略：ingot-cli cache policy set NAME --max-size 200GB --unused-days 30 --failed</translation>
    </message>
</context>
<context>
    <name>ingot::FleetPlaces</name>
    <message>
        <source>host %1</source>
        <translation>主机 %1</translation>
    </message>
    <message>
        <source>%1 (TorchNeuron)</source>
        <translation>%1 (TorchNeuron)</translation>
    </message>
    <message>
        <source>a Hub repo changes by commits: remove its entries on the Hub page</source>
        <translation>Hub 仓库通过提交进行变更：请在 Hub 页上移除其条目</translation>
    </message>
    <message>
        <source>TorchNeuron&apos;s cache format: see ingot-cli torchneuron</source>
        <translation>TorchNeuron 的缓存格式：参见 ingot-cli torchneuron</translation>
    </message>
    <message>
        <source>%1 is not in the host list (ingot-cli remote add)</source>
        <translation>%1 不在主机列表中（ingot-cli remote add）</translation>
    </message>
    <message>
        <source>not a Hub repo id: %1</source>
        <translation>不是 Hub 仓库 ID：%1</translation>
    </message>
    <message>
        <source>not a place: &quot;%1&quot; (a folder, host:NAME, s3://bucket/prefix or hub:org/name)</source>
        <translation>不是有效的位置：&quot;%1&quot;（应为文件夹、host:NAME、s3://bucket/prefix 或 hub:org/name）</translation>
    </message>
    <message>
        <source>a Hub repo has no cache store; it is read through the Hub&apos;s API</source>
        <translation>Hub 仓库没有缓存存储；它通过 Hub 的 API 读取</translation>
    </message>
    <message>
        <source>the Neuron tools on %1 do not cache (--no_cache in NEURON_CC_FLAGS)</source>
        <translation>%1 上的 Neuron 工具不使用缓存（NEURON_CC_FLAGS 中含 --no_cache）</translation>
    </message>
</context>
<context>
    <name>ingot::FleetSummary</name>
    <message>
        <source>HF_HUB_OFFLINE is set: the Hub is not asked</source>
        <translation>已设置 HF_HUB_OFFLINE：不查询 Hub</translation>
    </message>
    <message>
        <source>read in %1 s</source>
        <translation>读取用时 %1 s</translation>
    </message>
    <message>
        <source>no answer in %1 s</source>
        <translation>%1 s 内无响应</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法访问</translation>
    </message>
</context>
<context>
    <name>ingot::GcLog</name>
    <message numerus="yes">
        <source>%n place(s)</source>
        <translation>
            <numerusform>%n 个位置</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1 would be freed</source>
        <translation>，将释放 %1</translation>
    </message>
    <message>
        <source>, %1 freed</source>
        <translation>，已释放 %1</translation>
    </message>
    <message numerus="yes">
        <source>, %n unreachable</source>
        <translation>
            <numerusform>，%n 个无法访问</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot make %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>cannot lock %1: %2</source>
        <translation>无法锁定 %1：%2</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>ingot::GcSchedule</name>
    <message>
        <source>systemctl is not installed</source>
        <translation>未安装 systemctl</translation>
    </message>
    <message>
        <source>systemctl --user exited with %1</source>
        <translation>systemctl --user 已退出，返回码 %1</translation>
    </message>
    <message>
        <source>cannot make %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a unit file Ingot can read (a folder, a device or over 64 KiB)</source>
        <translation>%1 不是 Ingot 可读取的单元文件（是文件夹、设备或超过 64 KiB）</translation>
    </message>
    <message>
        <source>%1 exists and was not written by Ingot: it is left as it is</source>
        <translation>%1 已存在且不是由 Ingot 写入的：保持原样不动</translation>
    </message>
    <message>
        <source>cannot write in %1: %2</source>
        <translation>无法在 %1 中写入：%2</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Wrote %1.service and %1.timer in %2, but no systemd user manager answers here (%3), so the timer does not run yet. Where there is one: systemctl --user daemon-reload &amp;&amp; systemctl --user enable --now %1.timer</source>
        <translation>已在 %2 中写入 %1.service 和 %1.timer，但此处没有 systemd 用户管理器响应（%3），因此定时器尚未运行。在有用户管理器的地方执行：systemctl --user daemon-reload &amp;&amp; systemctl --user enable --now %1.timer</translation>
    </message>
    <message>
        <source>Without systemd, run it from cron: %1</source>
        <translation>没有 systemd 时，请通过 cron 运行：%1</translation>
    </message>
    <message>
        <source>Without systemd, add this line with crontab -e:
%1</source>
        <translation>没有 systemd 时，请用 crontab -e 添加这一行：
%1</translation>
    </message>
    <message>
        <source>ingot-cli is neither beside this program nor on PATH: install Ingot&apos;s command-line tool</source>
        <translation>ingot-cli 既不在本程序旁边，也不在 PATH 中：请安装 Ingot 的命令行工具</translation>
    </message>
    <message>
        <source>%1 takes no cache policy: %2</source>
        <translation>%1 不接受缓存策略：%2</translation>
    </message>
    <message>
        <source>a policy&apos;s name is letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos; (64 at most), not &quot;%1&quot;</source>
        <translation>策略名称只能由字母、数字、&apos;-&apos;、&apos;_&apos; 和 &apos;.&apos; 组成（最多 64 个），而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>a place named with a control character or bytes that are not UTF-8 cannot be scheduled: &quot;%1&quot;</source>
        <translation>名称含控制字符或非 UTF-8 字节的位置无法加入计划：&quot;%1&quot;</translation>
    </message>
    <message>
        <source>not a calendar expression: &quot;%1&quot; (daily, weekly, Mon *-*-* 03:00)</source>
        <translation>不是日历表达式：&quot;%1&quot;（例如 daily、weekly、Mon *-*-* 03:00）</translation>
    </message>
    <message>
        <source>systemd does not take the calendar expression &quot;%1&quot;: %2</source>
        <translation>systemd 不接受日历表达式 &quot;%1&quot;：%2</translation>
    </message>
    <message>
        <source>cron cannot say OnCalendar=%1 as Ingot writes it: put the time fields (minute hour day month weekday) before the command yourself</source>
        <translation>cron 无法表达 Ingot 所写的 OnCalendar=%1：请自行在命令前填写时间字段（分 时 日 月 星期）</translation>
    </message>
    <message>
        <source>a name with a backslash cannot be written in a crontab line: schedule that place by the timer</source>
        <translation>含反斜杠的名称无法写入 crontab 行：请使用定时器为该位置设置计划</translation>
    </message>
    <message>
        <source>a name holds a NUL byte</source>
        <translation>名称中含有 NUL 字节</translation>
    </message>
    <message>
        <source>the timer runs ingot-cli by its absolute path, not &quot;%1&quot;</source>
        <translation>定时器按绝对路径运行 ingot-cli，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>the units are written, but systemctl --user %1 %2.timer failed: %3</source>
        <translation>单元文件已写入，但 systemctl --user %1 %2.timer 失败：%3</translation>
    </message>
    <message>
        <source>The timer %1.timer runs policy %2 (%3); systemctl --user list-timers shows it.</source>
        <translation>定时器 %1.timer 运行策略 %2（%3）；可用 systemctl --user list-timers 查看。</translation>
    </message>
    <message>
        <source>no schedule for &quot;%1&quot;</source>
        <translation>&quot;%1&quot; 没有计划</translation>
    </message>
    <message>
        <source>no schedule for policy %1</source>
        <translation>策略 %1 没有计划</translation>
    </message>
    <message>
        <source>%1 was not written by Ingot: it is left as it is</source>
        <translation>%1 不是由 Ingot 写入的：保持原样不动</translation>
    </message>
    <message>
        <source>cannot remove %1: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <source>Stopped and removed the timer %1.timer.</source>
        <translation>已停止并移除定时器 %1.timer。</translation>
    </message>
    <message>
        <source>Removed %1.timer and %1.service (no systemd user manager answers here: remove the crontab line if you added one).</source>
        <translation>已移除 %1.timer 和 %1.service（此处没有 systemd 用户管理器响应：如果添加过 crontab 行，请将其删除）。</translation>
    </message>
</context>
<context>
    <name>ingot::Hlo</name>
    <message>
        <source>the file ends inside a field</source>
        <translation>文件在某个字段中间结束</translation>
    </message>
    <message>
        <source>a field of %1 bytes is over the limit of %2 bytes</source>
        <translation>%1 字节的字段超过了 %2 字节的上限</translation>
    </message>
    <message>
        <source>the file ends inside a name</source>
        <translation>文件在某个名称中间结束</translation>
    </message>
    <message>
        <source>the file ends inside a computation</source>
        <translation>文件在某个计算中间结束</translation>
    </message>
    <message>
        <source>a computation is not valid</source>
        <translation>某个计算无效</translation>
    </message>
    <message>
        <source>the module is over the limit of %1 MiB</source>
        <translation>模块超过了 %1 MiB 的上限</translation>
    </message>
    <message>
        <source>not an HLO module (a field that cannot be read)</source>
        <translation>不是 HLO 模块（有无法读取的字段）</translation>
    </message>
    <message>
        <source>not an HLO module (no computations)</source>
        <translation>不是 HLO 模块（没有计算）</translation>
    </message>
    <message>
        <source>the gzip stream is damaged</source>
        <translation>gzip 数据流已损坏</translation>
    </message>
    <message>
        <source>not an HLO module</source>
        <translation>不是 HLO 模块</translation>
    </message>
    <message>
        <source>HLO module:    %1%2</source>
        <translation>HLO 模块：    %1%2</translation>
    </message>
    <message>
        <source> (gzip)</source>
        <translation>（gzip）</translation>
    </message>
    <message>
        <source>  parameter %1: %2 %3</source>
        <translation>  参数 %1：%2 %3</translation>
    </message>
    <message>
        <source>  result:      %1</source>
        <translation>  结果：      %1</translation>
    </message>
    <message numerus="yes">
        <source>Instructions:  %1 in %n computation(s) (%2 in the entry); most frequent: %3</source>
        <translation>
            <numerusform>指令：        %1 条，分布在 %n 个计算中（入口中 %2 条）；最常见：%3</numerusform>
        </translation>
    </message>
    <message>
        <source>Collectives:   none (a single-device graph)</source>
        <translation>集合通信：    无（单设备计算图）</translation>
    </message>
    <message>
        <source>Collectives:</source>
        <translation>集合通信：</translation>
    </message>
    <message numerus="yes">
        <source>%n pair(s) %1</source>
        <translation>
            <numerusform>%n 对 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n group(s) of %1 %2</source>
        <translation>
            <numerusform>%n 组，每组 %1 个 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>every replica</source>
        <translation>所有副本</translation>
    </message>
    <message>
        <source>%1 ×%2 over %3</source>
        <translation>%1 ×%2，范围 %3</translation>
    </message>
    <message>
        <source>%1 more collectives of other kinds</source>
        <translation>另有 %1 个其他类型的集合通信</translation>
    </message>
    <message>
        <source>compile_flags.json is not a JSON list</source>
        <translation>compile_flags.json 不是 JSON 列表</translation>
    </message>
    <message>
        <source>compile_flags.json holds something other than strings</source>
        <translation>compile_flags.json 中含有非字符串的内容</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>parameter %1: %2 → %3</source>
        <translation>参数 %1：%2 → %3</translation>
    </message>
    <message>
        <source>parameter %1 (%2): %3 → %4</source>
        <translation>参数 %1（%2）：%3 → %4</translation>
    </message>
    <message>
        <source>result: %1 → %2</source>
        <translation>结果：%1 → %2</translation>
    </message>
    <message>
        <source>replica groups of %1 → %2</source>
        <translation>副本组大小 %1 → %2</translation>
    </message>
    <message>
        <source>same signature; %1 → %2 instructions</source>
        <translation>签名相同；指令数 %1 → %2</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… 以及另外 %1 项</translation>
    </message>
    <message>
        <source>an instruction or shape is not valid</source>
        <translation>某条指令或某个形状无效</translation>
    </message>
    <message>
        <source>too complex to read: an instruction or program shape holds more than %1 shapes, dimensions, replica groups or ids (the limit)</source>
        <translation>过于复杂，无法读取：某条指令或程序形状包含超过 %1 个形状、维度、副本组或 ID（上限）</translation>
    </message>
    <message>
        <source>a shape is nested deeper than %1 levels</source>
        <translation>某个形状的嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>too large to read: more than %1 instructions (the limit)</source>
        <translation>过大，无法读取：超过 %1 条指令（上限）</translation>
    </message>
    <message>
        <source>too large to read: more than %1 computations (the limit)</source>
        <translation>过大，无法读取：超过 %1 个计算（上限）</translation>
    </message>
    <message>
        <source>Computation:   %1 (the ENTRY)</source>
        <translation>计算：         %1（ENTRY）</translation>
    </message>
</context>
<context>
    <name>ingot::HostCopy</name>
    <message>
        <source>Cannot start ssh: %1.</source>
        <translation>无法启动 ssh：%1。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>%1 exists already; it was left as it is.</source>
        <translation>%1 已存在；已保持原样。</translation>
    </message>
    <message>
        <source>Another transfer is writing %1 (its staging folder is in use); nothing was done to it.</source>
        <translation>另一个传输正在写入 %1（其暂存文件夹正在使用中）；未对其做任何操作。</translation>
    </message>
    <message>
        <source>The cache folder for %1 cannot be opened or created on the host.</source>
        <translation>无法在主机上打开或创建 %1 的缓存文件夹。</translation>
    </message>
    <message>
        <source>%1 does not exist on the host.</source>
        <translation>%1 在主机上不存在。</translation>
    </message>
    <message>
        <source>%1: its compiler-version folder or the entry is a link (or not a folder); links are never followed.</source>
        <translation>%1：其编译器版本文件夹或该条目本身是链接（或不是文件夹）；从不跟随链接。</translation>
    </message>
    <message>
        <source>Cannot create a staging folder beside %1 on the host (permissions, a full disk?).</source>
        <translation>无法在主机上 %1 旁边创建暂存文件夹（权限问题，或磁盘已满？）。</translation>
    </message>
    <message>
        <source>Copying %1 failed on the host: %2</source>
        <translation>在主机上复制 %1 失败：%2</translation>
    </message>
    <message>
        <source>tar failed.</source>
        <translation>tar 执行失败。</translation>
    </message>
    <message>
        <source>Copying %1 failed: %2</source>
        <translation>复制 %1 失败：%2</translation>
    </message>
    <message>
        <source>Copying %1 failed on the host (status %2).</source>
        <translation>在主机上复制 %1 失败（状态 %2）。</translation>
    </message>
    <message>
        <source>Copying %1 failed on the host (status %2): %3</source>
        <translation>在主机上复制 %1 失败（状态 %2）：%3</translation>
    </message>
    <message>
        <source>The host&apos;s archive ended early.</source>
        <translation>主机发送的归档提前结束。</translation>
    </message>
    <message>
        <source>The host did not send a valid archive (a header&apos;s checksum is wrong).</source>
        <translation>主机发送的不是有效的归档（某个头部的校验和错误）。</translation>
    </message>
    <message>
        <source>The host&apos;s archive has a member of an impossible size.</source>
        <translation>主机的归档中有成员的大小不合理。</translation>
    </message>
    <message>
        <source>The host&apos;s archive has a name record that is too long.</source>
        <translation>主机的归档中有过长的名称记录。</translation>
    </message>
    <message>
        <source>Cannot create %1: %2.</source>
        <translation>无法创建 %1：%2。</translation>
    </message>
    <message>
        <source>The host&apos;s archive holds %1, which is not a file or a folder (a link or a device): refused.</source>
        <translation>主机的归档中包含 %1，它既不是文件也不是文件夹（而是链接或设备）：已拒绝。</translation>
    </message>
    <message>
        <source>The host&apos;s archive has a file without a name.</source>
        <translation>主机的归档中有一个没有名称的文件。</translation>
    </message>
    <message>
        <source>The host&apos;s entry has more than %1 files: no compiled module has that many; refused.</source>
        <translation>主机的条目包含超过 %1 个文件：任何已编译模块都不会有这么多文件；已拒绝。</translation>
    </message>
    <message>
        <source>The host&apos;s archive names %1, a path outside the entry: refused.</source>
        <translation>主机的归档中包含 %1，该路径位于条目之外：已拒绝。</translation>
    </message>
    <message>
        <source>The host&apos;s archive holds %1 twice: refused.</source>
        <translation>主机的归档中 %1 出现了两次：已拒绝。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>%1: the files the host has differ from those sent: nothing was kept.</source>
        <translation>%1：主机上的文件与发送的文件不一致：未保留任何内容。</translation>
    </message>
    <message>
        <source>%1: the sha256 of %2 differs between this machine and the host (corrupted in transit, or it changed meanwhile): nothing was kept.</source>
        <translation>%1：%2 的 sha256 在本机与主机之间不一致（传输中损坏，或期间发生了变化）：未保留任何内容。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a cache entry (neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;).</source>
        <translation>“%1”不是缓存条目（neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;）。</translation>
    </message>
    <message>
        <source>%1 became shorter while it was sent: nothing was kept.</source>
        <translation>%1 在发送过程中变短了：未保留任何内容。</translation>
    </message>
    <message>
        <source>%1 changed while it was sent: nothing was kept.</source>
        <translation>%1 在发送过程中发生了变化：未保留任何内容。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2.</source>
        <translation>无法打开 %1：%2。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: the host&apos;s sha256 list could not be read: nothing was kept.</source>
        <translation>%1：无法读取主机的 sha256 列表：未保留任何内容。</translation>
    </message>
    <message>
        <source>%1 does not exist in %2.</source>
        <translation>%1 在 %2 中不存在。</translation>
    </message>
    <message>
        <source>%1 is not a compiled module.</source>
        <translation>%1 不是已编译的模块。</translation>
    </message>
    <message>
        <source>%1: its compiler-version folder is a link; links are never followed.</source>
        <translation>%1：其编译器版本文件夹是链接；从不跟随链接。</translation>
    </message>
    <message>
        <source>%1 exists already in %2; it was left as it is.</source>
        <translation>%1 已存在于 %2 中；已保持原样。</translation>
    </message>
    <message>
        <source>%1 appeared in %2 meanwhile; it was left as it is.</source>
        <translation>%1 在此期间出现在了 %2 中；已保持原样。</translation>
    </message>
    <message>
        <source>Copying from %1 to %2 is not supported: copies go between this machine and a host.</source>
        <translation>不支持从 %1 复制到 %2：只能在本机与主机之间复制。</translation>
    </message>
    <message>
        <source>The source cache cannot be read: %1</source>
        <translation>无法读取源缓存：%1</translation>
    </message>
    <message>
        <source>%1 holds links that lead outside the cache (not into the Hugging Face hub cache) or nowhere; Ingot does not follow them, nothing was copied: %2</source>
        <translation>%1 含有指向缓存之外（不在 Hugging Face hub 缓存中）或无处的链接；Ingot 不跟随这些链接，未复制任何内容：%2</translation>
    </message>
    <message>
        <source>The host&apos;s archive holds %1, which the entry&apos;s listing did not show: refused, nothing was kept.</source>
        <translation>主机的归档中有 %1，而该条目的列表中没有它：已拒绝，未保留任何内容。</translation>
    </message>
    <message>
        <source>The host&apos;s archive announces %1 bytes for %2, more than the entry&apos;s listing showed (%3 bytes; the entry %4 bytes): refused, nothing was kept.</source>
        <translation>主机的归档为 %2 声明了 %1 字节，超过该条目列表所示（%3 字节；整个条目 %4 字节）：已拒绝，未保留任何内容。</translation>
    </message>
    <message>
        <source>%1 changed on the host while it was copied (a file&apos;s size or times moved): nothing was kept.</source>
        <translation>%1 在复制过程中于主机上发生了变化（某个文件的大小或时间变了）：未保留任何内容。</translation>
    </message>
</context>
<context>
    <name>ingot::HostKeyDialog</name>
    <message>
        <source>New host key — %1</source>
        <translation>新的主机密钥 — %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Ingot has never connected to %1 before.&lt;/b&gt;&lt;br&gt;The host presented the key below. Compare its fingerprint with the one the host&apos;s administrator gives you (on the host: &lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub&lt;/tt&gt;). Trust it only if they match: from then on ssh refuses any other key for this host.</source>
        <translation>&lt;b&gt;Ingot 从未连接过 %1。&lt;/b&gt;&lt;br&gt;该主机提供了下面的密钥。请将其指纹与主机管理员提供的指纹进行比对（在该主机上运行：&lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub&lt;/tt&gt;）。只有两者一致时才信任它：此后 ssh 会拒绝该主机的任何其他密钥。</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>Key type:</source>
        <translation>密钥类型：</translation>
    </message>
    <message>
        <source>Fingerprint:</source>
        <translation>指纹：</translation>
    </message>
    <message>
        <source>Recorded in:</source>
        <translation>记录位置：</translation>
    </message>
    <message>
        <source>&amp;Trust and connect</source>
        <translation>信任并连接(&amp;T)</translation>
    </message>
    <message>
        <source>Host key changed — %1</source>
        <translation>主机密钥已更改 — %1</translation>
    </message>
    <message>
        <source>The host key of %1 has CHANGED. Ingot refuses to connect.</source>
        <translation>%1 的主机密钥已被更改！Ingot 拒绝连接。</translation>
    </message>
    <message>
        <source>The key this host presents differs from the one recorded when you first connected. Either someone is intercepting the connection (a man-in-the-middle attack), or the host was reinstalled or got a new key.

Ask the host&apos;s administrator for the new key&apos;s fingerprint. Only if it matches, remove the old key yourself:

    %1

then connect again: Ingot will show you the new key. Ingot never accepts a changed key itself.</source>
        <translation>该主机提供的密钥与首次连接时记录的密钥不同。可能有人正在拦截连接（中间人攻击），也可能是该主机重装了系统或更换了密钥。

请向主机管理员索取新密钥的指纹。只有在指纹一致时，才自行删除旧密钥：

    %1

然后重新连接：Ingot 会向您显示新密钥。Ingot 绝不会自行接受已更改的密钥。</translation>
    </message>
</context>
<context>
    <name>ingot::HostS3Access</name>
    <message>
        <source>%1 on %2: %3</source>
        <translation>%2 上的%1：%3</translation>
    </message>
    <message>
        <source>%1 on %2 with its AWS CLI: %3</source>
        <translation>在 %2 上用其 AWS CLI %1：%3</translation>
    </message>
    <message>
        <source>%1 is not under %2.</source>
        <translation>%1 不在 %2 之下。</translation>
    </message>
    <message>
        <source>Listing %1</source>
        <translation>正在列出 %1</translation>
    </message>
    <message>
        <source>%1: the AWS CLI on %2 answered something that is not its JSON.</source>
        <translation>%1：%2 上的 AWS CLI 返回的不是它的 JSON。</translation>
    </message>
    <message>
        <source>%1: the listing holds %2, which is not a plain key under the prefix: refused.</source>
        <translation>%1：列表中有 %2，它不是前缀下的普通键：已拒绝。</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>正在读取 %1</translation>
    </message>
    <message>
        <source>%1 is not under %2: nothing was deleted.</source>
        <translation>%1 不在 %2 之下：未删除任何内容。</translation>
    </message>
    <message>
        <source>Deleting from %1</source>
        <translation>正在从 %1 删除</translation>
    </message>
</context>
<context>
    <name>ingot::HttpClient</name>
    <message>
        <source>%1 is not an http or https URL; Ingot sends nothing there.</source>
        <translation>%1 不是 http 或 https URL；Ingot 不会向其发送任何内容。</translation>
    </message>
    <message>
        <source>Too many redirects from %1 (a redirect loop?).</source>
        <translation>来自 %1 的重定向过多（存在重定向循环？）。</translation>
    </message>
    <message>
        <source>%1 did not answer within %2 s.</source>
        <translation>%1 在 %2 秒内未响应。</translation>
    </message>
    <message>
        <source>The response from %1 is larger than %2 bytes; refused.</source>
        <translation>来自 %1 的响应超过 %2 字节；已拒绝。</translation>
    </message>
    <message>
        <source>Could not read the data to send to %1.</source>
        <translation>无法读取要发送到 %1 的数据。</translation>
    </message>
    <message>
        <source>Could not store the data from %1.</source>
        <translation>无法保存来自 %1 的数据。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Could not connect to %1 within 10 s.</source>
        <translation>无法在 10 秒内连接到 %1。</translation>
    </message>
    <message>
        <source>%1 answered too slowly (below %2 bytes/s for %3 s); gave up.</source>
        <translation>%1 响应过慢（连续 %3 秒低于 %2 字节/秒）；已放弃。</translation>
    </message>
    <message>
        <source>Ingot cannot request %1: %2.</source>
        <translation>Ingot 无法请求 %1：%2。</translation>
    </message>
    <message>
        <source>Network error talking to %1: %2.</source>
        <translation>与 %1 通信时发生网络错误：%2。</translation>
    </message>
    <message>
        <source>%1 redirected to %2, which is not an http or https URL; refused.</source>
        <translation>%1 重定向到了 %2，这不是 http 或 https URL；已拒绝。</translation>
    </message>
    <message>
        <source>HF_HUB_OFFLINE is set: Ingot makes no request to the Hub.</source>
        <translation>已设置 HF_HUB_OFFLINE：Ingot 不会向 Hub 发送任何请求。</translation>
    </message>
    <message>
        <source>%1 redirected to another host (%2); Ingot takes the answer to this request only from %3.</source>
        <translation>%1 重定向到了另一台主机（%2）；Ingot 只接受来自 %3 的此请求的响应。</translation>
    </message>
    <message>
        <source>a header name that is not an HTTP token</source>
        <translation>头名称不是合法的 HTTP 令牌</translation>
    </message>
    <message>
        <source>the header %1 holds a control character</source>
        <translation>头 %1 含有控制字符</translation>
    </message>
    <message>
        <source>the access token holds a control character</source>
        <translation>访问令牌含有控制字符</translation>
    </message>
    <message>
        <source>the User-Agent holds a control character</source>
        <translation>User-Agent 含有控制字符</translation>
    </message>
    <message>
        <source>Ingot sends nothing to %1: %2 (a line break in a key or token?).</source>
        <translation>Ingot 不会向 %1 发送任何内容：%2（密钥或令牌中有换行符？）。</translation>
    </message>
</context>
<context>
    <name>ingot::HubCachePage</name>
    <message>
        <source>any</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Log in…</source>
        <translation>登录…</translation>
    </message>
    <message>
        <source>Log out</source>
        <translation>退出登录</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Look up</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Lookup</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>HF_HUB_OFFLINE is set: Ingot sends no request to the Hub. Unset it to browse Hub caches.</source>
        <translation>已设置 HF_HUB_OFFLINE：Ingot 不会向 Hub 发送任何请求。取消该设置后才能浏览 Hub 缓存。</translation>
    </message>
    <message>
        <source>Add repo…</source>
        <translation>添加仓库…</translation>
    </message>
    <message>
        <source>Use as cache repo</source>
        <translation>用作缓存仓库</translation>
    </message>
    <message>
        <source>Writes the repo id to $HF_HOME/optimum_neuron_custom_cache, the file optimum-cli reads too.</source>
        <translation>将仓库 ID 写入 $HF_HOME/optimum_neuron_custom_cache，optimum-cli 也读取该文件。</translation>
    </message>
    <message>
        <source>Create cache repo…</source>
        <translation>创建缓存仓库…</translation>
    </message>
    <message>
        <source>Cache repos</source>
        <translation>缓存仓库</translation>
    </message>
    <message>
        <source>&amp;Pull to local cache</source>
        <translation>拉取到本地缓存(&amp;P)</translation>
    </message>
    <message>
        <source>Download the selected &quot;Hub only&quot; modules (a folder: every module listed in it) into the local compile cache, verified, each appearing whole. Progress in Transfers (Ctrl+5).</source>
        <translation>将选中的“仅 Hub”模块（选中文件夹时，为其中列出的所有模块）下载到本地编译缓存，下载内容经过校验，每个模块都完整写入后才出现。进度见“传输”（Ctrl+5）。</translation>
    </message>
    <message>
        <source>P&amp;ush to this repo</source>
        <translation>推送到此仓库(&amp;U)</translation>
    </message>
    <message>
        <source>Upload the selected &quot;Local only&quot; modules (successful compiles only) to this repo.</source>
        <translation>将选中的“仅本地”模块（仅限编译成功的）上传到此仓库。</translation>
    </message>
    <message>
        <source>Stop listing; the folders not listed yet can be listed again with Refresh.</source>
        <translation>停止列出；尚未列出的文件夹之后可用“刷新”重新列出。</translation>
    </message>
    <message>
        <source>Select a registry entry (.json) to read it, or a module to see its files.</source>
        <translation>选择一个注册表条目（.json）以查看其内容，或选择一个模块以查看其文件。</translation>
    </message>
    <message>
        <source>Model id, e.g. meta-llama/Llama-3.1-8B-Instruct</source>
        <translation>模型 ID，例如 meta-llama/Llama-3.1-8B-Instruct</translation>
    </message>
    <message>
        <source>The raw registry entry of the selected row.</source>
        <translation>所选行的原始注册表条目。</translation>
    </message>
    <message>
        <source>Copy rows</source>
        <translation>复制行</translation>
    </message>
    <message>
        <source>Instance:</source>
        <translation>实例：</translation>
    </message>
    <message>
        <source>Batch:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <source>Sequence:</source>
        <translation>序列长度：</translation>
    </message>
    <message>
        <source>TP:</source>
        <translation>TP：</translation>
    </message>
    <message>
        <source>dtype:</source>
        <translation>dtype：</translation>
    </message>
    <message>
        <source>Reading the token…</source>
        <translation>正在读取访问令牌…</translation>
    </message>
    <message>
        <source>The cache repo in use (%1)</source>
        <translation>正在使用的缓存仓库（%1）</translation>
    </message>
    <message>
        <source>Offline (HF_HUB_OFFLINE) — %1</source>
        <translation>离线（HF_HUB_OFFLINE）— %1</translation>
    </message>
    <message>
        <source>Not logged in to %1: public repos only. Log in to read private repos and to write.</source>
        <translation>未登录 %1：只能访问公开仓库。登录后才能读取私有仓库和写入。</translation>
    </message>
    <message>
        <source>Checking the token…</source>
        <translation>正在检查访问令牌…</translation>
    </message>
    <message>
        <source>Token from %1 refused: %2</source>
        <translation>来自 %1 的访问令牌被拒绝：%2</translation>
    </message>
    <message>
        <source> (orgs: %1)</source>
        <translation> （组织：%1）</translation>
    </message>
    <message>
        <source>Logged in as &lt;b&gt;%1&lt;/b&gt;%2 — a token from %3 — %4</source>
        <translation>已登录为 &lt;b&gt;%1&lt;/b&gt;%2 — 访问令牌来自 %3 — %4</translation>
    </message>
    <message>
        <source>Logged in as &lt;b&gt;%1&lt;/b&gt;%2 — %3 token from %4 — %5</source>
        <translation>已登录为 &lt;b&gt;%1&lt;/b&gt;%2 — 访问令牌权限：%3，来源：%4 — %5</translation>
    </message>
    <message>
        <source>no access: %1</source>
        <translation>无访问权限：%1</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>private</source>
        <translation>私有</translation>
    </message>
    <message>
        <source>public</source>
        <translation>公开</translation>
    </message>
    <message>
        <source>you can write</source>
        <translation>你可写入</translation>
    </message>
    <message>
        <source>read-only for you</source>
        <translation>你仅可读取</translation>
    </message>
    <message numerus="yes">
        <source>&amp;Pull %n to local cache</source>
        <translation>
            <numerusform>将 %n 个拉取到本地缓存(&amp;P)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>P&amp;ush %n to this repo</source>
        <translation>
            <numerusform>将 %n 个推送到此仓库(&amp;U)</numerusform>
        </translation>
    </message>
    <message>
        <source>Listing %1/%2…</source>
        <translation>正在列出 %1/%2…</translation>
    </message>
    <message>
        <source>Listing cancelled: use Refresh to list it again.</source>
        <translation>已取消列出：可用“刷新”重新列出。</translation>
    </message>
    <message>
        <source>Listing of %1 cancelled.</source>
        <translation>已取消列出 %1。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n item(s) listed</source>
        <translation>
            <numerusform>%1：已列出 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Listing %1…</source>
        <translation>正在列出 %1…</translation>
    </message>
    <message numerus="yes">
        <source>Listing %1 and %n more folder(s)…</source>
        <translation>
            <numerusform>正在列出 %1 及另外 %n 个文件夹…</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Looking up %1 in %2…</source>
        <translation>正在 %2 中查找 %1…</translation>
    </message>
    <message>
        <source>Lookup of %1 in %2 cancelled.</source>
        <translation>已取消在 %2 中查找 %1。</translation>
    </message>
    <message>
        <source>No cached entries found for %1 in %2.</source>
        <translation>在 %2 中未找到 %1 的缓存条目。</translation>
    </message>
    <message numerus="yes">
        <source>%n cached entr(ies) for %1 in %2 (%3 registry files read).</source>
        <translation>
            <numerusform>在 %2 中找到 %1 的 %n 个缓存条目（读取了 %3 个注册表文件）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n entr(ies) of an unknown shape are listed too, raw.</source>
        <translation>
            <numerusform>另有 %n 个格式未知的条目，也以原始形式列出。</numerusform>
        </translation>
    </message>
    <message>
        <source>Log in to the Hub</source>
        <translation>登录 Hub</translation>
    </message>
    <message>
        <source>Hugging Face access token (from your Hub settings). Ingot keeps it in the system keychain, or in %1 (readable by you only) where no keychain runs.</source>
        <translation>Hugging Face 访问令牌（在 Hub 设置中获取）。Ingot 将其保存在系统钥匙串中；没有钥匙串服务时，则保存在 %1 中（仅你本人可读）。</translation>
    </message>
    <message>
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <source>Add a cache repo</source>
        <translation>添加缓存仓库</translation>
    </message>
    <message>
        <source>Repo id (org/name):</source>
        <translation>仓库 ID（org/name）：</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a repo id of the form org/name.</source>
        <translation>“%1”不是 org/name 格式的仓库 ID。</translation>
    </message>
    <message>
        <source>Cache repo</source>
        <translation>缓存仓库</translation>
    </message>
    <message>
        <source>Neuron cache name set locally to %1 in %2.</source>
        <translation>已在本地将 Neuron 缓存名称设为 %1（写入 %2）。</translation>
    </message>
    <message>
        <source>Create a cache repo</source>
        <translation>创建缓存仓库</translation>
    </message>
    <message>
        <source>Log in first: the repo is created in your namespace.</source>
        <translation>请先登录：仓库将创建在你的命名空间中。</translation>
    </message>
    <message>
        <source>Public (default: private)</source>
        <translation>公开（默认为私有）</translation>
    </message>
    <message>
        <source>Repo:</source>
        <translation>仓库：</translation>
    </message>
    <message>
        <source>Neuron cache created on the Hugging Face Hub: %1.</source>
        <translation>已在 Hugging Face Hub 上创建 Neuron 缓存：%1。</translation>
    </message>
    <message>
        <source>The system keychain could not be read, so the token file was: %1</source>
        <translation>无法读取系统钥匙串，因此改为读取令牌文件：%1</translation>
    </message>
    <message>
        <source>Could not reach %1 to check the token from %2: %3</source>
        <translation>无法连接 %1 来检查来自 %2 的令牌：%3</translation>
    </message>
    <message>
        <source>Could not check the token from %1: %2</source>
        <translation>无法检查来自 %1 的令牌：%2</translation>
    </message>
    <message>
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>%1
Being listed: its size and file count follow.</source>
        <translation>%1
正在列出：大小和文件数稍后显示。</translation>
    </message>
    <message>
        <source>%1
Could not be listed: %2</source>
        <translation>%1
无法列出：%2</translation>
    </message>
    <message>
        <source>%1
Not listed yet: expand it to see its size and file count.</source>
        <translation>%1
尚未列出：展开它以查看大小和文件数。</translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation>重试(&amp;R)</translation>
    </message>
    <message>
        <source>List the repo&apos;s files again</source>
        <translation>重新列出仓库的文件</translation>
    </message>
    <message>
        <source>Offline (HF_HUB_OFFLINE is set): the files of %1 are not listed.</source>
        <translation>离线（已设置 HF_HUB_OFFLINE）：未列出 %1 的文件。</translation>
    </message>
    <message>
        <source>The files of %1 could not be listed: %2</source>
        <translation>无法列出 %1 的文件：%2</translation>
    </message>
    <message numerus="yes">
        <source>%1
%2 in %n file(s)
%3</source>
        <translation>
            <numerusform>%1
%2，共 %n 个文件
%3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::HubClient</name>
    <message>
        <source>The Hub answered %1 with an HTML page instead of JSON. Is HF_ENDPOINT a Hub?</source>
        <translation>Hub 对 %1 返回了 HTML 页面而不是 JSON。HF_ENDPOINT 指向的是 Hub 吗？</translation>
    </message>
    <message>
        <source>The Hub sent an empty answer for %1.</source>
        <translation>Hub 对 %1 返回了空响应。</translation>
    </message>
    <message>
        <source>The Hub sent malformed or truncated JSON for %1.</source>
        <translation>Hub 对 %1 返回的 JSON 格式错误或不完整。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a repo id: use org/name, each part made of letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;.</source>
        <translation>“%1”不是仓库 ID：请使用 org/name 格式，每部分只能由字母、数字、&apos;.&apos;、&apos;_&apos; 和 &apos;-&apos; 组成。</translation>
    </message>
    <message numerus="yes">
        <source>%1 Tried %n time(s).</source>
        <translation>
            <numerusform>%1 已尝试 %n 次。</numerusform>
        </translation>
    </message>
    <message>
        <source>The Hub answered %1 with an HTML error page (%2): the service may be down, or HF_ENDPOINT may not point at a Hub.</source>
        <translation>Hub 对 %1 返回了 HTML 错误页面（%2）：服务可能已宕机，或 HF_ENDPOINT 指向的不是 Hub。</translation>
    </message>
    <message>
        <source>%1 is gated: accept its conditions on the Hub with your account, then use a token of that account (%2).</source>
        <translation>%1 是受限仓库：请先用你的账号在 Hub 上接受其使用条件，再使用该账号的访问令牌（%2）。</translation>
    </message>
    <message>
        <source>Repository %1 was not found, or your token cannot read it (%2).</source>
        <translation>未找到仓库 %1，或你的访问令牌无权读取它（%2）。</translation>
    </message>
    <message>
        <source>Repository %1 was not found, or it is private: log in with a token that can read it (%2).</source>
        <translation>未找到仓库 %1，或该仓库为私有：请使用有读取权限的访问令牌登录（%2）。</translation>
    </message>
    <message>
        <source>%1 has no such revision (%2).</source>
        <translation>%1 中没有该修订版本（%2）。</translation>
    </message>
    <message>
        <source>%1 is not in %2 (%3).</source>
        <translation>%1 不在 %2 中（%3）。</translation>
    </message>
    <message>
        <source>The Hub refused the token: it is invalid or expired (%1).</source>
        <translation>Hub 拒绝了该访问令牌：令牌无效或已过期（%1）。</translation>
    </message>
    <message>
        <source>This needs a Hugging Face token: log in first (%1).</source>
        <translation>此操作需要 Hugging Face token：请先登录（%1）。</translation>
    </message>
    <message>
        <source>Not allowed: %1 (%2).</source>
        <translation>无权操作：%1（%2）。</translation>
    </message>
    <message>
        <source>%1 was not found (%2).</source>
        <translation>未找到 %1（%2）。</translation>
    </message>
    <message>
        <source>%1 already exists (%2).</source>
        <translation>%1 已存在（%2）。</translation>
    </message>
    <message>
        <source>The repo changed meanwhile (%1).</source>
        <translation>仓库在此期间已发生变化（%1）。</translation>
    </message>
    <message numerus="yes">
        <source>The Hub is rate-limiting requests (%1); retried %n time(s). Wait a moment and try again.</source>
        <translation>
            <numerusform>Hub 正在限制请求频率（%1）；已重试 %n 次。请稍后再试。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The Hub failed to answer %1 (%2) after %n attempt(s).</source>
        <translation>
            <numerusform>Hub 未能响应对 %1 的请求（%2），已尝试 %n 次。</numerusform>
        </translation>
    </message>
    <message>
        <source>Unexpected answer to %1 (%2).</source>
        <translation>%1 返回了意外的应答（%2）。</translation>
    </message>
    <message>
        <source>Unexpected answer to %1 (%2): %3</source>
        <translation>%1 返回了意外的应答（%2）：%3</translation>
    </message>
    <message>
        <source>No Hugging Face token: set HF_TOKEN, run `huggingface-cli login`, or log in from Ingot.</source>
        <translation>没有 Hugging Face token：请设置 HF_TOKEN、运行 `huggingface-cli login`，或在 Ingot 中登录。</translation>
    </message>
    <message>
        <source>who am I</source>
        <translation>身份查询（whoami）</translation>
    </message>
    <message>
        <source>The Hub&apos;s whoami answer has no name.</source>
        <translation>Hub 的 whoami 响应中没有用户名。</translation>
    </message>
    <message>
        <source>Unexpected repo info for %1.</source>
        <translation>%1 的仓库信息异常。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a path inside a repo.</source>
        <translation>“%1”不是仓库内的路径。</translation>
    </message>
    <message>
        <source>the file list</source>
        <translation>文件列表</translation>
    </message>
    <message>
        <source>The Hub kept sending pages for the file list of %1: more than %2 pages; stopped. List a folder further down instead.</source>
        <translation>Hub 为 %1 的文件列表不断返回分页：已超过 %2 页，已停止。请改为列出更下层的文件夹。</translation>
    </message>
    <message>
        <source>The Hub kept sending pages for the file list of %1: more than %2 entries; stopped. List a folder further down instead.</source>
        <translation>Hub 为 %1 的文件列表不断返回分页：已超过 %2 个条目，已停止。请改为列出更下层的文件夹。</translation>
    </message>
    <message>
        <source>The Hub&apos;s file list of %1 continues on another host (%2); Ingot follows pages only on HF_ENDPOINT (%3). Stopped.</source>
        <translation>Hub 返回的 %1 文件列表延续到了另一台主机（%2）；Ingot 只在 HF_ENDPOINT（%3）上跟随分页。已停止。</translation>
    </message>
    <message>
        <source>The Hub&apos;s file list of %1 goes round in circles: its next page is one already read. Stopped.</source>
        <translation>Hub 返回的 %1 文件列表陷入循环：下一页是已读取过的页面。已停止。</translation>
    </message>
    <message>
        <source>path information</source>
        <translation>路径信息</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Could not write %1 (disk full?): %2</source>
        <translation>无法写入 %1（磁盘已满？）：%2</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 arrived incomplete (%2 of %3 bytes).</source>
        <translation>%1 下载不完整（共 %3 字节，仅收到 %2 字节）。</translation>
    </message>
    <message>
        <source>%1 does not match its sha256 checksum.</source>
        <translation>%1 与其 sha256 校验和不符。</translation>
    </message>
    <message>
        <source>Could not move the download into place at %1.</source>
        <translation>无法将下载的文件移动到 %1。</translation>
    </message>
    <message>
        <source>Could not write the download of %1: %2.</source>
        <translation>无法写入 %1 的下载内容：%2。</translation>
    </message>
    <message>
        <source>The Hub answered a different range of %1 than the one asked for.</source>
        <translation>Hub 返回的 %1 数据范围与请求的不一致。</translation>
    </message>
    <message>
        <source>%1 arrived with %2 bytes instead of %3.</source>
        <translation>%1 收到 %2 字节，应为 %3 字节。</translation>
    </message>
    <message>
        <source>The Hub sent an empty answer for the file list of %1.</source>
        <translation>Hub 对 %1 的文件列表返回了空响应。</translation>
    </message>
    <message>
        <source>The Hub sent malformed or truncated JSON for the file list of %1.</source>
        <translation>Hub 对 %1 的文件列表返回的 JSON 格式错误或不完整。</translation>
    </message>
    <message>
        <source>The Hub&apos;s file list of %1 is not a list.</source>
        <translation>Hub 返回的 %1 文件列表不是列表格式。</translation>
    </message>
    <message>
        <source>An entry of the file list of %1 has no path or type.</source>
        <translation>%1 的文件列表中有一个条目缺少路径或类型。</translation>
    </message>
    <message>
        <source>The file list of %1 names &quot;%2&quot;, a path that leaves the repo; refused.</source>
        <translation>%1 的文件列表中包含“%2”，该路径超出了仓库范围；已拒绝。</translation>
    </message>
</context>
<context>
    <name>ingot::HubCommit</name>
    <message>
        <source>The Hub sent malformed JSON for %1.</source>
        <translation>Hub 对 %1 返回的 JSON 格式错误。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a repo id: use org/name.</source>
        <translation>“%1”不是仓库 ID：请使用 org/name 格式。</translation>
    </message>
    <message>
        <source>The Hub gave no upload address for %1.</source>
        <translation>Hub 未提供 %1 的上传地址。</translation>
    </message>
    <message>
        <source>The Hub&apos;s multipart upload plan for %1 does not fit its size.</source>
        <translation>Hub 为 %1 给出的分块上传计划与其大小不符。</translation>
    </message>
    <message>
        <source>The storage gave no ETag for part %1 of %2.</source>
        <translation>存储服务未返回 %2 第 %1 部分的 ETag。</translation>
    </message>
    <message>
        <source>the check of %1</source>
        <translation>%1 的检查</translation>
    </message>
    <message>
        <source>The token of %1 is read-only: pushing to %2 needs a token with write access (create one in your Hub settings, then log in with it).</source>
        <translation>%1 的访问令牌是只读的：推送到 %2 需要具有写权限的访问令牌（请在 Hub 设置中创建一个，然后用它登录）。</translation>
    </message>
    <message>
        <source>%1 cannot write to %2: the repo is neither in your namespace nor in one of your organizations.</source>
        <translation>%1 无法写入 %2：该仓库既不在你的命名空间中，也不属于你所在的任何组织。</translation>
    </message>
    <message>
        <source>the write check</source>
        <translation>写权限检查</translation>
    </message>
    <message>
        <source>Your token cannot write to %1 (%2). Use a token with write access to it.</source>
        <translation>你的访问令牌无法写入 %1（%2）。请使用对其具有写权限的访问令牌。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>the upload plan</source>
        <translation>上传计划</translation>
    </message>
    <message numerus="yes">
        <source>The Hub&apos;s upload plan left out %n file(s).</source>
        <translation>
            <numerusform>Hub 的上传计划遗漏了 %n 个文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>the LFS upload plan</source>
        <translation>LFS 上传计划</translation>
    </message>
    <message>
        <source>The Hub refused the upload of %1: %2</source>
        <translation>Hub 拒绝了 %1 的上传：%2</translation>
    </message>
    <message>
        <source>%1 changed while it was being pushed (its size is no longer %2 bytes).</source>
        <translation>%1 在推送过程中发生了变化（大小已不再是 %2 字节）。</translation>
    </message>
    <message>
        <source>the commit</source>
        <translation>提交</translation>
    </message>
    <message>
        <source>The Hub&apos;s answer to the commit has no commit id.</source>
        <translation>Hub 对提交的响应中没有提交 ID。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
</context>
<context>
    <name>ingot::HubConfig</name>
    <message>
        <source>from CUSTOM_CACHE_REPO</source>
        <translation>来自 CUSTOM_CACHE_REPO</translation>
    </message>
    <message>
        <source>set with `cache set` (the file optimum-cli reads too)</source>
        <translation>通过 `cache set` 设置（optimum-cli 也读取该文件）</translation>
    </message>
    <message>
        <source>the public default</source>
        <translation>公共默认仓库</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a repo id of the form org/name.</source>
        <translation>“%1”不是 org/name 格式的仓库 ID。</translation>
    </message>
    <message>
        <source>no token</source>
        <translation>无访问令牌</translation>
    </message>
    <message>
        <source>the token saved in Ingot (system keychain)</source>
        <translation>Ingot 中保存的访问令牌（系统钥匙串）</translation>
    </message>
    <message>
        <source>the token file %1</source>
        <translation>访问令牌文件 %1</translation>
    </message>
    <message>
        <source>That is not a token: it is empty or contains spaces.</source>
        <translation>这不是有效的访问令牌：它为空或包含空格。</translation>
    </message>
    <message>
        <source>Could not remove the token file %1 (%2): remove it by hand to log out.</source>
        <translation>无法删除访问令牌文件 %1（%2）：请手动删除以退出登录。</translation>
    </message>
    <message>
        <source>Cannot create the folder of %1.</source>
        <translation>无法创建 %1 所在的文件夹。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>The token file is gone, but the token saved in %1 may still be there (%2): log out again later.</source>
        <translation>令牌文件已删除，但保存在 %1 中的令牌可能仍在（%2）：请稍后再次注销。</translation>
    </message>
</context>
<context>
    <name>ingot::HubPull</name>
    <message>
        <source>The Hub&apos;s folder of %1 holds a sub-folder (%2); Ingot pulls only plain module folders.</source>
        <translation>Hub 上 %1 的文件夹中包含子文件夹（%2）；Ingot 只拉取普通的模块文件夹。</translation>
    </message>
    <message>
        <source>The Hub&apos;s folder of %1 holds a file named &quot;%2&quot;, which Ingot does not write into a cache.</source>
        <translation>Hub 上 %1 的文件夹中包含名为“%2”的文件，Ingot 不会将其写入缓存。</translation>
    </message>
    <message>
        <source>The Hub lists %1 of %2 without a usable checksum; not pulled.</source>
        <translation>Hub 列出的 %2 中的 %1 没有可用的校验和；未拉取。</translation>
    </message>
    <message>
        <source>The Hub&apos;s %1 has no model.neff (a failed or unfinished compile); in the cache it would stop the compiler from trying again. Not pulled.</source>
        <translation>Hub 上的 %1 没有 model.neff（编译失败或未完成）；放入缓存后会阻止编译器重新编译。未拉取。</translation>
    </message>
    <message>
        <source>Not on the Hub (%1).</source>
        <translation>不在 Hub 上（%1）。</translation>
    </message>
    <message>
        <source>The Hugging Face cache layout needs HF_HOME and a plain revision.</source>
        <translation>Hugging Face 缓存布局需要 HF_HOME 和简单的修订版本。</translation>
    </message>
    <message>
        <source>The Hub did not name the commit of %1.</source>
        <translation>Hub 未告知 %1 对应的提交。</translation>
    </message>
    <message>
        <source>Cannot create the Hugging Face cache folder %1.</source>
        <translation>无法创建 Hugging Face 缓存文件夹 %1。</translation>
    </message>
    <message>
        <source>HF_HUB_OFFLINE is set: Ingot makes no request to the Hub, so nothing can be pulled. Unset it to pull.</source>
        <translation>已设置 HF_HUB_OFFLINE：Ingot 不会向 Hub 发送任何请求，因此无法拉取。如需拉取，请取消设置该变量。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a cache entry (neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;).</source>
        <translation>“%1”不是缓存条目（neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;）。</translation>
    </message>
    <message>
        <source>Already in the cache; left as it is.</source>
        <translation>已在缓存中；保持原样。</translation>
    </message>
    <message>
        <source>Cannot link %1 into %2: %3.</source>
        <translation>无法将 %1 链接到 %2：%3。</translation>
    </message>
    <message>
        <source>Cannot write %1 in %2: %3.</source>
        <translation>无法在 %2 中写入 %1：%3。</translation>
    </message>
    <message>
        <source>Could not write %1 to disk: %2.</source>
        <translation>无法将 %1 写入磁盘：%2。</translation>
    </message>
    <message>
        <source>Cannot move %1 into place: %2.</source>
        <translation>无法将 %1 移动到目标位置：%2。</translation>
    </message>
    <message>
        <source>Appeared in the cache meanwhile (a compile or another transfer); left as it is.</source>
        <translation>期间已出现在缓存中（由编译或其他传输写入）；保持原样。</translation>
    </message>
    <message>
        <source>%1 is no longer on the Hub (the repo changed during the pull); pull again.</source>
        <translation>%1 已不在 Hub 上（拉取期间仓库发生了变化）；请重新拉取。</translation>
    </message>
    <message>
        <source>%1 arrived damaged: its %2 does not match the Hub&apos;s (%3); nothing was written into the cache. Pull again; if it happens again, the Hub&apos;s copy may be bad.</source>
        <translation>%1 下载后已损坏：其 %2 与 Hub 上的（%3）不一致；未向缓存写入任何内容。请重新拉取；如果再次出现，可能是 Hub 上的副本已损坏。</translation>
    </message>
    <message>
        <source>git blob id</source>
        <translation>git blob ID</translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <source>Cannot link %1: %2.</source>
        <translation>无法链接 %1：%2。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a compiler version.</source>
        <translation>“%1”不是编译器版本。</translation>
    </message>
</context>
<context>
    <name>ingot::HubPush</name>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: not a name Ingot pushes</source>
        <translation>%1：Ingot 不推送此名称</translation>
    </message>
    <message>
        <source>%1: not a module of this cache</source>
        <translation>%1：不是此缓存中的模块</translation>
    </message>
    <message>
        <source>%1: already on the Hub</source>
        <translation>%1：已在 Hub 上</translation>
    </message>
    <message>
        <source>no files to push</source>
        <translation>没有可推送的文件</translation>
    </message>
    <message>
        <source>%1 would hold %2 entries on the Hub, more than the %3 a Hub folder may hold: the Hub may refuse the commits. Push fewer entries, or use another repo.</source>
        <translation>%1 在 Hub 上将包含 %2 个条目，超过了 Hub 单个文件夹最多可容纳的 %3 个：Hub 可能会拒绝这些提交。请减少推送的条目，或使用其他仓库。</translation>
    </message>
    <message>
        <source>The push has %1 items for %2 entries.</source>
        <translation>推送包含 %1 个项目，但条目有 %2 个。</translation>
    </message>
    <message>
        <source>no longer in the cache</source>
        <translation>已不在缓存中</translation>
    </message>
    <message>
        <source>its files changed since the plan; plan again</source>
        <translation>制定计划后其文件已发生变化；请重新制定计划</translation>
    </message>
    <message>
        <source>already on the Hub (committed meanwhile)</source>
        <translation>已在 Hub 上（期间已被提交）</translation>
    </message>
    <message>
        <source>now %1</source>
        <translation>现在为 %1</translation>
    </message>
</context>
<context>
    <name>ingot::HubTreeModel</name>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>in transfer…</source>
        <translation>传输中…</translation>
    </message>
    <message>
        <source>Hub and local</source>
        <translation>Hub 和本地</translation>
    </message>
    <message>
        <source>Hub only</source>
        <translation>仅 Hub</translation>
    </message>
    <message>
        <source>Local only</source>
        <translation>仅本地</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>Stored with LFS, sha256 %1</source>
        <translation>以 LFS 存储，sha256 %1</translation>
    </message>
    <message>
        <source>On its way (see Transfers).</source>
        <translation>正在传输（见“传输”）。</translation>
    </message>
    <message>
        <source>Compiled here but not on the Hub: a candidate to push.</source>
        <translation>已在本地编译，但不在 Hub 上：可推送。</translation>
    </message>
    <message>
        <source>On the Hub but not in the local cache: a candidate to pull.</source>
        <translation>在 Hub 上，但不在本地缓存中：可拉取。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
</context>
<context>
    <name>ingot::IncomingEntry</name>
    <message>
        <source>&quot;%1&quot; is not a cache entry (neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;).</source>
        <translation>“%1”不是缓存条目（neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;）。</translation>
    </message>
    <message>
        <source>Cannot open the cache folder %1: %2.</source>
        <translation>无法打开缓存文件夹 %1：%2。</translation>
    </message>
    <message>
        <source>Cannot create %1: %2.</source>
        <translation>无法创建 %1：%2。</translation>
    </message>
    <message>
        <source>%1 is a symbolic link or not a folder; Ingot does not write through it.</source>
        <translation>%1 是符号链接或不是文件夹；Ingot 不会通过它写入。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2.</source>
        <translation>无法打开 %1：%2。</translation>
    </message>
    <message>
        <source>Cannot check %1: %2.</source>
        <translation>无法检查 %1：%2。</translation>
    </message>
    <message>
        <source>Another transfer is writing %1 into this cache; nothing was done to it.</source>
        <translation>另一个传输正在将 %1 写入此缓存；未对其做任何操作。</translation>
    </message>
    <message>
        <source>Cannot create a staging folder in %1: %2.</source>
        <translation>无法在 %1 中创建暂存文件夹：%2。</translation>
    </message>
    <message>
        <source>Cannot open the staging folder in %1: %2.</source>
        <translation>无法打开 %1 中的暂存文件夹：%2。</translation>
    </message>
    <message>
        <source>The staging folder is not open.</source>
        <translation>暂存文件夹未打开。</translation>
    </message>
    <message>
        <source>Cannot remove %1 from %2: %3.</source>
        <translation>无法从 %2 中删除 %1：%3。</translation>
    </message>
    <message>
        <source>Could not write %1 to disk: %2.</source>
        <translation>无法将 %1 写入磁盘：%2。</translation>
    </message>
    <message>
        <source>Could not move %1 into place: %2.</source>
        <translation>无法将 %1 移动到目标位置：%2。</translation>
    </message>
    <message>
        <source>Could not set the permissions of %1: %2.</source>
        <translation>无法设置 %1 的权限：%2。</translation>
    </message>
</context>
<context>
    <name>ingot::InstanceRole</name>
    <message>
        <source>The instance role is not asked (AWS_EC2_METADATA_DISABLED).</source>
        <translation>不查询实例角色（AWS_EC2_METADATA_DISABLED）。</translation>
    </message>
    <message>
        <source>No instance role: the instance metadata service at %1 did not answer (%2).</source>
        <translation>没有实例角色：%1 处的实例元数据服务没有响应（%2）。</translation>
    </message>
    <message>
        <source>No instance role: this instance has no IAM role attached (HTTP %1).</source>
        <translation>没有实例角色：此实例未附加 IAM 角色（HTTP %1）。</translation>
    </message>
    <message>
        <source>The instance role %1 gave no keys (HTTP %2, %3).</source>
        <translation>实例角色 %1 没有提供密钥（HTTP %2，%3）。</translation>
    </message>
    <message>
        <source>No instance role: the instance metadata service at %1 gave a token with a control character, which would go into an HTTP header: refused.</source>
        <translation>没有实例角色：%1 处的实例元数据服务给出的令牌含有控制字符，它会进入 HTTP 头：已拒绝。</translation>
    </message>
    <message>
        <source>The instance role %1 gave keys whose %2 holds a control character, which would go into an HTTP header: refused.</source>
        <translation>实例角色 %1 给出的密钥中 %2 含有控制字符，它会进入 HTTP 头：已拒绝。</translation>
    </message>
</context>
<context>
    <name>ingot::JobFileDialog</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>There is no file to show.</source>
        <translation>没有可显示的文件。</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Read-only; each file&apos;s last %1 KiB at most.</source>
        <translation>只读；每个文件最多显示最后 %1 KiB。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>[… the start of the file is not shown]</source>
        <translation>[… 文件开头未显示]</translation>
    </message>
</context>
<context>
    <name>ingot::JobLauncher</name>
    <message>
        <source>Choosing a preset fills the form with its settings</source>
        <translation>选择预设后，会用其设置填充表单</translation>
    </message>
    <message>
        <source>Save as preset…</source>
        <translation>另存为预设…</translation>
    </message>
    <message>
        <source>Delete preset</source>
        <translation>删除预设</translation>
    </message>
    <message>
        <source>Delete the preset “%1”? Jobs launched with it are not affected.</source>
        <translation>删除预设“%1”？已用它启动的任务不受影响。</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <source>Launched %1. The next launch gets a fresh job folder.</source>
        <translation>已启动 %1。下次启动将使用新的任务文件夹。</translation>
    </message>
    <message>
        <source>The job did not start: %1</source>
        <translation>任务未能启动：%1</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>What runs</source>
        <translation>运行内容</translation>
    </message>
    <message>
        <source>Ingot&apos;s training backend</source>
        <translation>Ingot 训练后端</translation>
    </message>
    <message>
        <source>A training script</source>
        <translation>训练脚本</translation>
    </message>
    <message>
        <source>A module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Program:</source>
        <translation>程序：</translation>
    </message>
    <message>
        <source>train.py</source>
        <translation>train.py</translation>
    </message>
    <message>
        <source>Script:</source>
        <translation>脚本：</translation>
    </message>
    <message>
        <source>Training script</source>
        <translation>训练脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py);;All files (*)</source>
        <translation>Python 脚本 (*.py);;所有文件 (*)</translation>
    </message>
    <message>
        <source>package.train (runs python -m NAME)</source>
        <translation>package.train（以 python -m NAME 运行）</translation>
    </message>
    <message>
        <source>Module:</source>
        <translation>模块：</translation>
    </message>
    <message>
        <source>--my_flag 3 --note &quot;quoted words&quot;</source>
        <translation>--my_flag 3 --note &quot;带引号的文字&quot;</translation>
    </message>
    <message>
        <source>Appended after the settings, split as a shell would split them</source>
        <translation>追加在设置之后，按 shell 的规则拆分</translation>
    </message>
    <message>
        <source>Script arguments:</source>
        <translation>脚本参数：</translation>
    </message>
    <message>
        <source>Pass these settings as flags (optimum-neuron&apos;s names)</source>
        <translation>将这些设置作为命令行参数传入（使用 optimum-neuron 的参数名）</translation>
    </message>
    <message>
        <source>Job name:</source>
        <translation>任务名称：</translation>
    </message>
    <message>
        <source>Model and data</source>
        <translation>模型和数据</translation>
    </message>
    <message>
        <source>Built-in config</source>
        <translation>内置配置</translation>
    </message>
    <message>
        <source>Hugging Face folder</source>
        <translation>Hugging Face 文件夹</translation>
    </message>
    <message>
        <source>A folder with config.json</source>
        <translation>包含 config.json 的文件夹</translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <source>Bundled sample</source>
        <translation>自带示例</translation>
    </message>
    <message>
        <source>A file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>A folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Training data:</source>
        <translation>训练数据：</translation>
    </message>
    <message>
        <source>Text to train on</source>
        <translation>用于训练的文本</translation>
    </message>
    <message>
        <source>Training data</source>
        <translation>训练数据</translation>
    </message>
    <message>
        <source>A fresh folder per job</source>
        <translation>每个任务使用新文件夹</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message>
        <source>Output folder:</source>
        <translation>输出文件夹：</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>并行</translation>
    </message>
    <message>
        <source>torchrun --nproc_per_node: one process per NeuronCore</source>
        <translation>torchrun --nproc_per_node：每个 NeuronCore 一个进程</translation>
    </message>
    <message>
        <source>Processes per node:</source>
        <translation>每节点进程数：</translation>
    </message>
    <message>
        <source>Nodes:</source>
        <translation>节点数：</translation>
    </message>
    <message>
        <source>Tensor parallel:</source>
        <translation>张量并行：</translation>
    </message>
    <message>
        <source>Pipeline parallel:</source>
        <translation>流水线并行：</translation>
    </message>
    <message>
        <source>Micro-batches:</source>
        <translation>微批次数：</translation>
    </message>
    <message>
        <source>ZeRO-1 (shard the optimizer state across data-parallel ranks)</source>
        <translation>ZeRO-1（将优化器状态分片到各数据并行 rank）</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>Embedding parallel (split the embedding and head by vocabulary)</source>
        <translation>嵌入并行（按词表切分 embedding 层和输出头）</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批次</translation>
    </message>
    <message>
        <source>Per-device batch:</source>
        <translation>每设备批大小：</translation>
    </message>
    <message>
        <source>Gradient accumulation:</source>
        <translation>梯度累积：</translation>
    </message>
    <message>
        <source>Block size:</source>
        <translation>块大小：</translation>
    </message>
    <message>
        <source>Optimisation</source>
        <translation>优化</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>学习率：</translation>
    </message>
    <message>
        <source>Weight decay:</source>
        <translation>权重衰减：</translation>
    </message>
    <message>
        <source>Warm-up:</source>
        <translation>预热：</translation>
    </message>
    <message>
        <source>Train for epochs</source>
        <translation>按轮次训练</translation>
    </message>
    <message>
        <source>Train for steps</source>
        <translation>按步数训练</translation>
    </message>
    <message>
        <source>--max_steps; when training for epochs the form passes -1</source>
        <translation>--max_steps；按轮次训练时，表单传入 -1</translation>
    </message>
    <message>
        <source>0: no clipping</source>
        <translation>0：不裁剪</translation>
    </message>
    <message>
        <source>Clip gradients at norm:</source>
        <translation>梯度裁剪范数：</translation>
    </message>
    <message>
        <source>bf16 (train in bfloat16)</source>
        <translation>bf16（以 bfloat16 训练）</translation>
    </message>
    <message>
        <source>Saving, logging and the rest</source>
        <translation>保存、日志及其他</translation>
    </message>
    <message>
        <source>every </source>
        <translation>每 </translation>
    </message>
    <message>
        <source>Log:</source>
        <translation>记录日志：</translation>
    </message>
    <message>
        <source>only at the end</source>
        <translation>仅在结束时</translation>
    </message>
    <message>
        <source>Save a checkpoint:</source>
        <translation>保存检查点：</translation>
    </message>
    <message>
        <source>Start from scratch</source>
        <translation>从头开始</translation>
    </message>
    <message>
        <source>Resume from:</source>
        <translation>从检查点继续：</translation>
    </message>
    <message>
        <source>Checkpoint to resume from</source>
        <translation>要从中继续的检查点</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>auto (Neuron if present, else CUDA, else CPU)</source>
        <translation>auto（优先 Neuron，其次 CUDA，最后 CPU）</translation>
    </message>
    <message>
        <source>cpu</source>
        <translation>cpu</translation>
    </message>
    <message>
        <source>cuda</source>
        <translation>cuda</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>Where the job runs: this machine, or a host over SSH (its Python, its files; the backend is copied there once)</source>
        <translation>任务的运行位置：本机，或通过 SSH 连接的主机（使用该主机的 Python 和文件；后端只需复制过去一次）</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>运行于：</translation>
    </message>
    <message>
        <source>host2, host3, … (one per node after the first)</source>
        <translation>host2, host3, …（第一个节点之外，每个节点一台）</translation>
    </message>
    <message>
        <source>A multi-node job runs one torchrun per host with the same rendezvous; the output folder must be on a filesystem every host shares</source>
        <translation>多节点任务在每台主机上各运行一个 torchrun，使用同一个 rendezvous；输出文件夹必须位于所有主机共享的文件系统上</translation>
    </message>
    <message>
        <source>Other nodes:</source>
        <translation>其他节点：</translation>
    </message>
    <message>
        <source>Python:</source>
        <translation>Python：</translation>
    </message>
    <message>
        <source>Not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>Not set (Neuron&apos;s default: %1)</source>
        <translation>未设置（Neuron 默认值：%1）</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Extra variables:</source>
        <translation>额外环境变量：</translation>
    </message>
    <message>
        <source>What this layout means</source>
        <translation>此布局的含义</translation>
    </message>
    <message>
        <source>Compile cache</source>
        <translation>编译缓存</translation>
    </message>
    <message>
        <source>Clean…</source>
        <translation>清理…</translation>
    </message>
    <message>
        <source>Preview the maintenance of this cache on the Local cache page</source>
        <translation>在“本地缓存”页中预览此缓存的维护操作</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the command line to the clipboard</source>
        <translation>将命令行复制到剪贴板</translation>
    </message>
    <message>
        <source>Copy as shell script</source>
        <translation>复制为 shell 脚本</translation>
    </message>
    <message>
        <source>&amp;Launch</source>
        <translation>启动(&amp;L)</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程数</translation>
    </message>
    <message>
        <source>%1 on one node</source>
        <translation>%1（单节点）</translation>
    </message>
    <message>
        <source>%1 (%2 per node × %3 nodes)</source>
        <translation>%1（每节点 %2 × %3 个节点）</translation>
    </message>
    <message>
        <source>Data-parallel size</source>
        <translation>数据并行度</translation>
    </message>
    <message>
        <source>— (tp × pp = %1 does not divide %2)</source>
        <translation>—（%2 不能被 tp × pp = %1 整除）</translation>
    </message>
    <message>
        <source>%1 (tp %2 × pp %3 per replica)</source>
        <translation>%1（每个副本 tp %2 × pp %3）</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批大小</translation>
    </message>
    <message>
        <source>%1 sequences (%2 per device × dp %3 × %4 accumulated)</source>
        <translation>%1 个序列（每设备 %2 × dp %3 × 累积 %4）</translation>
    </message>
    <message>
        <source>Tokens per step</source>
        <translation>每步 token 数</translation>
    </message>
    <message>
        <source>%1 (%2 tokens a sequence)</source>
        <translation>%1（每个序列 %2 个 token）</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Per rank (largest)</source>
        <translation>每 rank（最大）</translation>
    </message>
    <message>
        <source>Per stage, one tp rank</source>
        <translation>每阶段（单个 tp rank）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>unknown (no model)</source>
        <translation>未知（无模型）</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Start the command shown as job %1</source>
        <translation>将显示的命令作为任务 %1 启动</translation>
    </message>
    <message>
        <source>Fix the settings marked in red first</source>
        <translation>请先修正标红的设置</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>正在启动 %1…</translation>
    </message>
    <message>
        <source>Automatic: the first Python with torch</source>
        <translation>自动：第一个带 torch 的 Python</translation>
    </message>
    <message>
        <source>Automatic (%1)</source>
        <translation>自动（%1）</translation>
    </message>
    <message>
        <source>%1 — Python %2, torch %3</source>
        <translation>%1 — Python %2，torch %3</translation>
    </message>
    <message>
        <source>%1 — Python %2, no torch (unusable)</source>
        <translation>%1 — Python %2，无 torch（不可用）</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Looking for Python interpreters…</source>
        <translation>正在查找 Python 解释器…</translation>
    </message>
    <message>
        <source>The first interpreter found that imports torch</source>
        <translation>找到的第一个能导入 torch 的解释器</translation>
    </message>
    <message>
        <source>torch does not import here: %1</source>
        <translation>此解释器无法导入 torch：%1</translation>
    </message>
    <message>
        <source>Python %1, torch %2, torch-neuronx</source>
        <translation>Python %1，torch %2，torch-neuronx</translation>
    </message>
    <message>
        <source>Python %1, torch %2, torch-xla</source>
        <translation>Python %1，torch %2，torch-xla</translation>
    </message>
    <message>
        <source>Python %1, torch %2</source>
        <translation>Python %1，torch %2</translation>
    </message>
    <message>
        <source>Chosen by hand: not checked for torch</source>
        <translation>手动选择：未检查 torch</translation>
    </message>
    <message>
        <source>Python interpreter</source>
        <translation>Python 解释器</translation>
    </message>
    <message>
        <source>The path of the Python on %1:</source>
        <translation>%1 上 Python 的路径：</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Save as preset</source>
        <translation>另存为预设</translation>
    </message>
    <message>
        <source>Name of the preset:</source>
        <translation>预设名称：</translation>
    </message>
    <message>
        <source>Replace the preset “%1”?</source>
        <translation>替换预设“%1”？</translation>
    </message>
    <message>
        <source>Derived from the model, layout and start time</source>
        <translation>由模型、布局和开始时间生成</translation>
    </message>
    <message>
        <source>all checkpoints</source>
        <translation>全部检查点</translation>
    </message>
    <message>
        <source>Keep only the newest N checkpoint-N folders: older ones are deleted once a new one is fully written (0: keep all)</source>
        <translation>只保留最新的 N 个 checkpoint-N 文件夹：新检查点完整写入后删除较旧的（0：全部保留）</translation>
    </message>
    <message>
        <source>Keep the last:</source>
        <translation>保留最近：</translation>
    </message>
    <message>
        <source>Runs first: %1 (the same command), then the training.</source>
        <translation>先运行：%1（相同的命令），然后训练。</translation>
    </message>
    <message>
        <source>Precompile first (neuron_parallel_compile), then train</source>
        <translation>先预编译（neuron_parallel_compile），再训练</translation>
    </message>
    <message>
        <source>The same command runs first under the Neuron SDK&apos;s neuron_parallel_compile: every graph is traced, compiled in parallel into the cache, then the training runs. A failed graph stops the job before training.</source>
        <translation>同一命令先在 Neuron SDK 的 neuron_parallel_compile 下运行：追踪每个计算图并并行编译到缓存中，然后开始训练。任一计算图编译失败都会在训练前终止作业。</translation>
    </message>
    <message numerus="yes">
        <source> token(s)</source>
        <translation>
            <numerusform> 个 token</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> step(s)</source>
        <translation>
            <numerusform> 步</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> checkpoint(s)</source>
        <translation>
            <numerusform> 个检查点</numerusform>
        </translation>
    </message>
    <message>
        <source>Warning: --%1: %2</source>
        <translation>警告：--%1：%2</translation>
    </message>
    <message>
        <source>Note: --%1: %2</source>
        <translation>注意：--%1：%2</translation>
    </message>
    <message>
        <source>Engine:</source>
        <translation>引擎：</translation>
    </message>
    <message>
        <source>Fully sharded (FSDP, ZeRO-3: parameters, gradients and optimizer state; native engine)</source>
        <translation>完全分片（FSDP，ZeRO-3：参数、梯度和优化器状态；原生引擎）</translation>
    </message>
    <message>
        <source>torch.compile (native engine)</source>
        <translation>torch.compile（原生引擎）</translation>
    </message>
    <message>
        <source>xla (Neuron, PyTorch/XLA engine)</source>
        <translation>xla（Neuron，PyTorch/XLA 引擎）</translation>
    </message>
    <message>
        <source>neuron (TorchNeuron, native engine)</source>
        <translation>neuron（TorchNeuron，原生引擎）</translation>
    </message>
    <message>
        <source>Ask a compute node</source>
        <translation>询问计算节点</translation>
    </message>
    <message>
        <source>Ask the job&apos;s Python on a compute node of the partition (srun --immediate: only a node free now, for a few seconds); the login node answers otherwise</source>
        <translation>在该分区的计算节点上询问作业的 Python（srun --immediate：只用此刻空闲的节点，仅几秒钟）；否则由登录节点回答</translation>
    </message>
    <message>
        <source>Looking for the last run&apos;s graphs first…</source>
        <translation>正在先查找上次运行的图…</translation>
    </message>
    <message>
        <source>Bring compiled graphs first</source>
        <translation>预先带入已编译的图</translation>
    </message>
    <message>
        <source>Before training, copy the graphs of the last run with these settings that this cache lacks from the places below</source>
        <translation>训练前，从下列位置复制此缓存缺少的、使用相同设置的上次运行的图</translation>
    </message>
    <message>
        <source>Places: a folder, host:NAME, s3://bucket/prefix, hub:org/name (default: where the last run&apos;s graphs are)</source>
        <translation>位置：文件夹、host:NAME、s3://bucket/prefix、hub:org/name（默认：上次运行的图所在位置）</translation>
    </message>
    <message>
        <source>Stop bringing graphs</source>
        <translation>停止带入图</translation>
    </message>
    <message>
        <source>Copy no more graphs; the job is not started</source>
        <translation>不再复制图；作业不会启动</translation>
    </message>
</context>
<context>
    <name>ingot::JobListModel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>Unknown (host unreachable)</source>
        <translation>未知（主机不可达）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Layout (dp×tp×pp)</source>
        <translation>布局（dp×tp×pp）</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message>
        <source>%1 (latest)</source>
        <translation>%1（最新）</translation>
    </message>
    <message>
        <source>The loss at the job&apos;s last step</source>
        <translation>作业最后一步的损失</translation>
    </message>
    <message>
        <source>The latest loss: the job has not ended</source>
        <translation>最新损失：作业尚未结束</translation>
    </message>
    <message>
        <source>%1
Resumed from %2</source>
        <translation>%1
恢复自 %2</translation>
    </message>
    <message>
        <source>The final loss of an ended job; the latest loss of one still running</source>
        <translation>已结束作业的最终损失；仍在运行的作业的最新损失</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Submitted %1</source>
        <translation>提交于 %1</translation>
    </message>
    <message>
        <source>Submitted %1, started %2</source>
        <translation>提交于 %1，开始于 %2</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队时间</translation>
    </message>
</context>
<context>
    <name>ingot::JobLogView</name>
    <message>
        <source>&amp;Follow</source>
        <translation>跟随(&amp;F)</translation>
    </message>
    <message>
        <source>Find &amp;next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <source>Which process&apos;s output to show: a rank, or torchrun&apos;s own</source>
        <translation>显示哪个进程的输出：某个 rank，或 torchrun 自身</translation>
    </message>
    <message>
        <source>Keep the newest line in view</source>
        <translation>始终显示最新一行</translation>
    </message>
    <message>
        <source>Search the log</source>
        <translation>搜索日志</translation>
    </message>
    <message>
        <source>Process:</source>
        <translation>进程：</translation>
    </message>
    <message>
        <source>torchrun</source>
        <translation>torchrun</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>%1 [line cut]</source>
        <translation>%1 [行已截断]</translation>
    </message>
    <message>
        <source>Showing the last %L1 lines; %L2 older lines are in %3</source>
        <translation>仅显示最后 %L1 行；更早的 %L2 行在 %3 中</translation>
    </message>
    <message>
        <source>Find: go to the log&apos;s search</source>
        <translation>查找：转到日志搜索框</translation>
    </message>
    <message>
        <source>Find the next match in the log</source>
        <translation>在日志中查找下一个匹配项</translation>
    </message>
    <message>
        <source>loss %1</source>
        <translation>损失 %1</translation>
    </message>
    <message>
        <source>learning rate %1</source>
        <translation>学习率 %1</translation>
    </message>
    <message>
        <source>gradient norm %1</source>
        <translation>梯度范数 %1</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 token/秒</translation>
    </message>
    <message>
        <source>%1 s a step</source>
        <translation>每步 %1 秒</translation>
    </message>
    <message>
        <source>▸ step %1: %2</source>
        <translation>▸ 第 %1 步：%2</translation>
    </message>
    <message>
        <source>▸ %1</source>
        <translation>▸ %1</translation>
    </message>
    <message>
        <source>▸ %1: %2</source>
        <translation>▸ %1：%2</translation>
    </message>
</context>
<context>
    <name>ingot::JobManager</name>
    <message>
        <source>Job %1 has no node %2 that Ingot can reach from here.</source>
        <translation>任务 %1 没有可从此处访问的节点 %2。</translation>
    </message>
    <message>
        <source>A job on %1 nodes needs as many hosts, the first being %2.</source>
        <translation>%1 个节点的任务需要同样数量的主机，第一台为 %2。</translation>
    </message>
    <message>
        <source>Each node of a job runs on another host: a host is named twice.</source>
        <translation>任务的每个节点都运行在不同的主机上：有主机被指定了两次。</translation>
    </message>
    <message>
        <source>A job on %1 nodes needs %1 hosts (--hosts H1,H2,...).</source>
        <translation>%1 个节点的任务需要 %1 台主机（--hosts H1,H2,...）。</translation>
    </message>
    <message>
        <source>No Python with torch was found on %1: choose one (--python).</source>
        <translation>在 %1 上未找到安装了 torch 的 Python：请指定一个（--python）。</translation>
    </message>
    <message>
        <source>%1 is not an executable on %2 (node %3): every node runs the same Python.</source>
        <translation>%1 在 %2（节点 %3）上不是可执行文件：每个节点都使用同一个 Python。</translation>
    </message>
    <message>
        <source>The job&apos;s wrapper did not start within 10 s on %1 (see %2).</source>
        <translation>任务的包装脚本未在 10 秒内于 %1 上启动（参见 %2）。</translation>
    </message>
    <message>
        <source>Node %1 on %2 did not start: %3</source>
        <translation>%2 上的节点 %1 未能启动：%3</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a job id.</source>
        <translation>“%1”不是任务 ID。</translation>
    </message>
    <message>
        <source>No job %1 in %2.</source>
        <translation>%2 中没有任务 %1。</translation>
    </message>
    <message>
        <source>Job folder %1 holds the settings of job %2.</source>
        <translation>任务文件夹 %1 中保存的是任务 %2 的设置。</translation>
    </message>
    <message>
        <source>Job %1 is not running (%2).</source>
        <translation>任务 %1 未在运行（%2）。</translation>
    </message>
    <message>
        <source>Job %1 has no running launcher.</source>
        <translation>任务 %1 没有正在运行的启动器。</translation>
    </message>
    <message numerus="yes">
        <source>Killed %n process(es) of job %1.</source>
        <translation>
            <numerusform>已终止任务 %1 的 %n 个进程。</numerusform>
        </translation>
    </message>
    <message>
        <source>Job %1 was asked to stop %2 s ago and is saving a checkpoint; Stop again after %3 s to kill it.</source>
        <translation>任务 %1 已于 %2 秒前收到停止请求，正在保存检查点；%3 秒后再次“停止”即可强制终止。</translation>
    </message>
    <message>
        <source>Asked job %1 to stop (SIGTERM to torchrun, pid %2): it saves a checkpoint and stops.</source>
        <translation>已请求任务 %1 停止（向 torchrun 发送 SIGTERM，pid %2）：它会先保存检查点再停止。</translation>
    </message>
    <message>
        <source>Job %1 is running: stop it first.</source>
        <translation>任务 %1 正在运行：请先停止它。</translation>
    </message>
    <message>
        <source>The output folder %1 holds more than this job&apos;s outputs: remove it by hand.</source>
        <translation>输出文件夹 %1 中包含该任务输出以外的内容：请手动删除。</translation>
    </message>
    <message>
        <source>On %1: %2</source>
        <translation>在 %1 上：%2</translation>
    </message>
    <message>
        <source>Cancelled Slurm job %1 (job %2).</source>
        <translation>已取消 Slurm 作业 %1（任务 %2）。</translation>
    </message>
    <message>
        <source>Job %1 was asked to stop %2 s ago and is saving a checkpoint; Stop again after %3 s to cancel it.</source>
        <translation>任务 %1 已在 %2 秒前被要求停止，正在保存检查点；%3 秒后再次停止即可取消它。</translation>
    </message>
    <message>
        <source>Cancelled pending Slurm job %1 (job %2): it had not started.</source>
        <translation>已取消排队中的 Slurm 作业 %1（任务 %2）：它尚未开始。</translation>
    </message>
    <message>
        <source>Asked job %1 to stop (SIGTERM to its torchrun agents through Slurm job %2): it saves a checkpoint and stops.</source>
        <translation>已要求任务 %1 停止（通过 Slurm 作业 %2 向其 torchrun 代理发送 SIGTERM）：它会保存检查点后停止。</translation>
    </message>
    <message>
        <source>Precompile first needs the Neuron SDK&apos;s neuron_parallel_compile: it is neither beside %1 nor on the PATH of %2.</source>
        <translation>“先预编译”需要 Neuron SDK 的 neuron_parallel_compile：它既不在 %1 旁边，也不在 %2 的 PATH 中。</translation>
    </message>
    <message>
        <source>Cancelled the precompile (Slurm job %1) and the training job (Slurm job %2) of job %3.</source>
        <translation>已取消作业 %3 的预编译（Slurm 作业 %1）和训练作业（Slurm 作业 %2）。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Slurm job %1 was not cancelled: Ingot could not check that it is this job&apos;s (%2).</source>
        <translation>Slurm 作业 %1 未被取消：Ingot 无法确认它属于此作业（%2）。</translation>
    </message>
    <message>
        <source>Slurm job %1 is not this job&apos;s: Slurm names it %2 in %3, where Ingot submitted %4 in %5. It was not cancelled (the job folder&apos;s slurm_job_id was changed).</source>
        <translation>Slurm 作业 %1 不属于此作业：Slurm 称其为 %3 中的 %2，而 Ingot 提交的是 %5 中的 %4。它未被取消（作业文件夹中的 slurm_job_id 被改动过）。</translation>
    </message>
    <message>
        <source>%1 is the folder of a run Ingot did not launch: removing the job only forgets it.</source>
        <translation>%1 是一个并非由 Ingot 启动的运行的文件夹：删除该作业只会让 Ingot 不再记录它。</translation>
    </message>
</context>
<context>
    <name>ingot::JobMonitor</name>
    <message>
        <source>Starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>Compiling / first step</source>
        <translation>编译中 / 第一步</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>Saving a checkpoint</source>
        <translation>正在保存检查点</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>The data is tokenized as bytes: %1</source>
        <translation>数据按字节进行了分词：%1</translation>
    </message>
    <message>
        <source>Stopped at step %1 (%2); checkpoint: %3</source>
        <translation>已在第 %1 步停止（%2）；检查点：%3</translation>
    </message>
    <message>
        <source>Killed after Stop (no checkpoint was written by this stop)</source>
        <translation>停止后被强制终止（此次停止未写入检查点）</translation>
    </message>
    <message>
        <source>Stopped (the launcher exited with status %1)</source>
        <translation>已停止（启动器退出状态为 %1）</translation>
    </message>
    <message>
        <source>The job did not start (no launcher.pid was written)</source>
        <translation>任务未能启动（未写入 launcher.pid）</translation>
    </message>
    <message>
        <source>The job ended without a result: it was killed, or the machine restarted</source>
        <translation>任务未产生结果就结束了：它被强制终止，或机器已重启</translation>
    </message>
    <message>
        <source>The launcher exited with status %1</source>
        <translation>启动器已退出，状态为 %1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Consolidate…</source>
        <translation>合并(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Open output folder</source>
        <translation>打开输出文件夹(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Launch again…</source>
        <translation>再次启动(&amp;L)…</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Compile activity</source>
        <translation>编译活动</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Ask the job to stop: it saves a checkpoint and ends (SIGTERM). After %1 s the button kills it instead.</source>
        <translation>请求任务停止：先保存检查点再结束（SIGTERM）。%1 秒后，此按钮改为强制终止任务。</translation>
    </message>
    <message>
        <source>Launch the same settings again, resuming from the newest checkpoint</source>
        <translation>以相同设置再次启动，从最新的检查点继续</translation>
    </message>
    <message>
        <source>Merge the sharded checkpoint into one model (the consolidation wizard)</source>
        <translation>将分片检查点合并为一个模型（合并向导）</translation>
    </message>
    <message>
        <source>Open these settings in the launcher</source>
        <translation>在启动器中打开这些设置</translation>
    </message>
    <message>
        <source>By step</source>
        <translation>按步</translation>
    </message>
    <message>
        <source>By time</source>
        <translation>按时间</translation>
    </message>
    <message>
        <source>Lo&amp;g scale</source>
        <translation>对数刻度(&amp;G)</translation>
    </message>
    <message>
        <source>How much the loss curve is smoothed (an exponential moving average)</source>
        <translation>损失曲线的平滑程度（指数移动平均）</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>对比…</translation>
    </message>
    <message>
        <source>Overlay other runs from the history</source>
        <translation>叠加显示历史中的其他运行</translation>
    </message>
    <message>
        <source>X axis:</source>
        <translation>X 轴：</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>平滑：</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>Double-click an entry to show it on the Local cache page</source>
        <translation>双击条目可在“本地缓存”页中显示</translation>
    </message>
    <message>
        <source>The job failed (no reason was found in its logs).</source>
        <translation>任务失败（日志中未找到原因）。</translation>
    </message>
    <message>
        <source>Rank %1: %2</source>
        <translation>Rank %1：%2</translation>
    </message>
    <message>
        <source>step %L1 of %L2</source>
        <translation>第 %L1 / %L2 步</translation>
    </message>
    <message>
        <source>step %L1</source>
        <translation>第 %L1 步</translation>
    </message>
    <message>
        <source>Elapsed %1</source>
        <translation>已用时 %1</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>预计剩余 %1</translation>
    </message>
    <message>
        <source>%L1 tokens/s</source>
        <translation>%L1 tokens/s</translation>
    </message>
    <message>
        <source>loss %L1</source>
        <translation>损失 %L1</translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation>rank %1：%2</translation>
    </message>
    <message>
        <source>peak memory %1</source>
        <translation>峰值内存 %1</translation>
    </message>
    <message>
        <source>peak memory %1 (rank 0)</source>
        <translation>峰值内存 %1（rank 0）</translation>
    </message>
    <message>
        <source>&amp;Kill</source>
        <translation>强制终止(&amp;K)</translation>
    </message>
    <message>
        <source>Kill every process of the job now (SIGKILL): no checkpoint is saved</source>
        <translation>立即终止任务的所有进程（SIGKILL）：不保存检查点</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Resume from %1</source>
        <translation>从 %1 继续</translation>
    </message>
    <message>
        <source>On %1: %2</source>
        <translation>在 %1 上：%2</translation>
    </message>
    <message>
        <source>Consolidated on %1</source>
        <translation>已在 %1 上合并</translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1（%2，%3）</translation>
    </message>
    <message>
        <source>No other runs yet</source>
        <translation>暂无其他运行</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>This job compiles without a cache (--no_cache).</source>
        <translation>此任务编译时不使用缓存（--no_cache）。</translation>
    </message>
    <message>
        <source>Entries of %1 written since the job started</source>
        <translation>自任务启动以来写入 %1 的条目</translation>
    </message>
    <message>
        <source>No compile cache at %1 yet: entries appear here once the job compiles.</source>
        <translation>%1 处还没有编译缓存：任务开始编译后，条目会显示在这里。</translation>
    </message>
    <message>
        <source>Consolidation on %1 failed</source>
        <translation>在 %1 上合并失败</translation>
    </message>
    <message>
        <source>Resumed from %1</source>
        <translation>恢复自 %1</translation>
    </message>
    <message>
        <source>Show job %1 (%2)</source>
        <translation>显示作业 %1（%2）</translation>
    </message>
    <message>
        <source>Resumed from job %1 (no longer in the history)</source>
        <translation>恢复自作业 %1（已不在历史记录中）</translation>
    </message>
    <message>
        <source>final loss %L1</source>
        <translation>最终损失 %L1</translation>
    </message>
    <message>
        <source>The job&apos;s compile cache cannot be read now: %1</source>
        <translation>目前无法读取该任务的编译缓存：%1</translation>
    </message>
    <message>
        <source>Slurm ended it at its time limit (%1); last checkpoint: %2</source>
        <translation>Slurm 在达到时间限制（%1）时结束了它；最后的检查点：%2</translation>
    </message>
    <message>
        <source>A node of the job failed (%1): Slurm ended it</source>
        <translation>任务的一个节点出现故障（%1）：Slurm 结束了它</translation>
    </message>
    <message>
        <source>Out of memory: Slurm ended it</source>
        <translation>内存不足：Slurm 结束了它</translation>
    </message>
    <message>
        <source>Cancelled outside Ingot (scancel)</source>
        <translation>在 Ingot 之外被取消（scancel）</translation>
    </message>
    <message>
        <source>Preempted by Slurm</source>
        <translation>被 Slurm 抢占</translation>
    </message>
    <message>
        <source>The job was not submitted to Slurm (no slurm_job_id)</source>
        <translation>该任务未提交到 Slurm（没有 slurm_job_id）</translation>
    </message>
    <message>
        <source>Pending (Slurm)</source>
        <translation>排队中（Slurm）</translation>
    </message>
    <message>
        <source>job %1 (no longer known to the scheduler)</source>
        <translation>作业 %1（调度器已不再记录）</translation>
    </message>
    <message>
        <source>job %1, %2 on partition %3</source>
        <translation>作业 %1，%2，分区 %3</translation>
    </message>
    <message>
        <source> (%1; %2 in the partition&apos;s queue)</source>
        <translation>（%1；在分区队列中排第 %2）</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>, nodes %1</source>
        <translation>，节点 %1</translation>
    </message>
    <message>
        <source>, %1 of %2</source>
        <translation>，%1 / %2</translation>
    </message>
    <message>
        <source>Slurm %1</source>
        <translation>Slurm %1</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>(not submitted)</source>
        <translation>（未提交）</translation>
    </message>
    <message numerus="yes">
        <source>Slurm %1 on %2, %n node(s)</source>
        <translation>
            <numerusform>Slurm %1，位于 %2，%n 个节点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Slurm %1 on %2, %3, %n node(s)</source>
        <translation>
            <numerusform>Slurm %1，位于 %2，%3，%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>The precompile (Slurm job %1) failed (%2): the training was not started</source>
        <translation>预编译（Slurm 作业 %1）失败（%2）：训练未启动</translation>
    </message>
    <message>
        <source>job %1, ended with exit status %2</source>
        <translation>作业 %1，已结束，退出状态 %2</translation>
    </message>
    <message>
        <source>not submitted yet</source>
        <translation>尚未提交</translation>
    </message>
    <message>
        <source>precompile %1; training %2</source>
        <translation>预编译 %1；训练 %2</translation>
    </message>
    <message>
        <source>&amp;Batch script…</source>
        <translation>批处理脚本(&amp;B)…</translation>
    </message>
    <message>
        <source>The Slurm batch script as it was submitted (and its precompile job&apos;s)</source>
        <translation>提交时的 Slurm 批处理脚本（以及其预编译作业的脚本）</translation>
    </message>
    <message>
        <source>Batch script of job %1</source>
        <translation>作业 %1 的批处理脚本</translation>
    </message>
    <message>
        <source>The precompile (neuron_parallel_compile) failed with status %1: the training was not started</source>
        <translation>预编译（neuron_parallel_compile）失败，状态为 %1：训练未启动</translation>
    </message>
    <message>
        <source>NeuronCores</source>
        <translation>NeuronCore</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Precompile (neuron_parallel_compile)</source>
        <translation>预编译（neuron_parallel_compile）</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>In the cache</source>
        <translation>在缓存中</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>重试次数</translation>
    </message>
    <message>
        <source>Compile time</source>
        <translation>编译时间</translation>
    </message>
    <message>
        <source>Double-click a graph to show its entry on the Local cache page</source>
        <translation>双击计算图，在“本地缓存”页面显示其条目</translation>
    </message>
    <message>
        <source>not yet</source>
        <translation>尚未</translation>
    </message>
    <message>
        <source>compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>处理方法：%1</translation>
    </message>
    <message>
        <source>No graph of this job in %1 yet.</source>
        <translation>%1 中尚无此作业的计算图。</translation>
    </message>
    <message>
        <source>%1 — in %2 (double-click an entry to show it; hover over why for the evidence)</source>
        <translation>%1 — 位于 %2（双击条目查看；将鼠标悬停在“原因”上查看依据）</translation>
    </message>
    <message>
        <source>The Slurm job has not started on its nodes yet.</source>
        <translation>Slurm 作业尚未在其节点上启动。</translation>
    </message>
    <message>
        <source>layout %1 (dp×tp×pp)</source>
        <translation>布局 %1（dp×tp×pp）</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>&amp;Cancel consolidation</source>
        <translation>取消合并(&amp;C)</translation>
    </message>
    <message>
        <source>Consolidation on %1 cancelled</source>
        <translation>%1 上的合并已取消</translation>
    </message>
    <message>
        <source>imported from %1</source>
        <translation>导入自 %1</translation>
    </message>
    <message>
        <source>Stalled (no step)</source>
        <translation>停滞（无新步骤）</translation>
    </message>
    <message>
        <source>A stall threshold is at most 30 days (0: the default rule).</source>
        <translation>停滞阈值最多为 30 天（0：使用默认规则）。</translation>
    </message>
    <message>
        <source>Stacks of a Slurm job are not asked for: scancel --signal would reach torchrun too, which SIGUSR2 ends. Run py-spy dump --pid PID on its nodes if it is installed there.</source>
        <translation>不会询问 Slurm 作业的堆栈：scancel --signal 也会发到 torchrun，而 SIGUSR2 会使其结束。如果节点上装有 py-spy，请在其节点上运行 py-spy dump --pid PID。</translation>
    </message>
    <message>
        <source>The job is not running: there are no stacks to ask for.</source>
        <translation>作业未在运行：没有可询问的堆栈。</translation>
    </message>
    <message>
        <source>This job runs its own program, not Ingot&apos;s backend: no signal is sent (SIGUSR2 would end a program that does not handle it). Run py-spy dump --pid PID where it runs if py-spy is installed, or have the program call faulthandler.register(signal.SIGUSR2, all_threads=True) at its start.</source>
        <translation>此作业运行的是它自己的程序，而不是 Ingot 的后端：不会发送信号（对不处理 SIGUSR2 的程序，该信号会使其结束）。如果装有 py-spy，请在其运行处执行 py-spy dump --pid PID，或让程序在启动时调用 faulthandler.register(signal.SIGUSR2, all_threads=True)。</translation>
    </message>
    <message>
        <source>Not every rank has said that it dumps its stacks on SIGUSR2 yet (an older backend, or ranks still starting): no signal is sent.</source>
        <translation>并非每个 rank 都已表明会在收到 SIGUSR2 时转储堆栈（后端较旧，或 rank 仍在启动）：不会发送信号。</translation>
    </message>
    <message>
        <source>No rank process of the job was found to signal (it may have just ended).</source>
        <translation>未找到可发送信号的作业 rank 进程（作业可能刚刚结束）。</translation>
    </message>
    <message>
        <source>No step for %1 (threshold %2), since %3 at step %4</source>
        <translation>已 %1 没有新步骤（阈值 %2），自 %3 的第 %4 步起</translation>
    </message>
    <message>
        <source>rank %1 at %2</source>
        <translation>rank %1 于 %2</translation>
    </message>
    <message>
        <source>; the ranks that logged last: %1</source>
        <translation>；最后写日志的 rank：%1</translation>
    </message>
</context>
<context>
    <name>ingot::JobRemoveDialog</name>
    <message>
        <source>Looking at job %1…</source>
        <translation>正在检查任务 %1…</translation>
    </message>
    <message>
        <source>Remove job</source>
        <translation>删除任务</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <source>Removes the job&apos;s folder %1 (%2): its settings, logs and metrics.</source>
        <translation>将删除任务文件夹 %1（%2），其中包括设置、日志和指标。</translation>
    </message>
    <message>
        <source>Also delete the outputs (%1, %2)</source>
        <translation>同时删除输出（%1，%2）</translation>
    </message>
    <message>
        <source>The outputs are kept: %1</source>
        <translation>输出将保留：%1</translation>
    </message>
    <message>
        <source>The outputs are inside the job&apos;s folder and go with it.</source>
        <translation>输出位于任务文件夹内，将一并删除。</translation>
    </message>
</context>
<context>
    <name>ingot::JobResume</name>
    <message>
        <source>Job %1 has not ended: it can be resumed once it has.</source>
        <translation>任务 %1 尚未结束：结束后才能恢复。</translation>
    </message>
    <message>
        <source>No checkpoint-N in the output folder to resume from</source>
        <translation>输出文件夹中没有可用于恢复的 checkpoint-N</translation>
    </message>
    <message>
        <source>Job %1 is a run Ingot did not launch (imported from its folder): it is read-only here, Ingot knows no settings to resume it with.</source>
        <translation>作业 %1 是一个并非由 Ingot 启动的运行（从其文件夹导入）：它在此处为只读，Ingot 不知道可用于恢复它的设置。</translation>
    </message>
</context>
<context>
    <name>ingot::JobService</name>
    <message>
        <source>Remote hosts are not available here.</source>
        <translation>此处无法使用远程主机。</translation>
    </message>
    <message>
        <source>%1 does not exist (yet)</source>
        <translation>%1 （尚）不存在</translation>
    </message>
    <message>
        <source>The run folder could not be imported.</source>
        <translation>无法导入运行文件夹。</translation>
    </message>
</context>
<context>
    <name>ingot::JobSpec</name>
    <message>
        <source>job settings: &quot;%1&quot; has a value of the wrong type</source>
        <translation>任务设置：“%1”的值类型不正确</translation>
    </message>
    <message>
        <source>the backend has no option %1 (see python3 -m ingot_train --help)</source>
        <translation>后端没有选项 %1（参见 python3 -m ingot_train --help）</translation>
    </message>
    <message>
        <source>--%1 takes no value</source>
        <translation>--%1 不接受参数值</translation>
    </message>
    <message>
        <source>--%1 needs a value</source>
        <translation>--%1 需要一个值</translation>
    </message>
    <message>
        <source>--%1: %2 is not a number</source>
        <translation>--%1：%2 不是数字</translation>
    </message>
</context>
<context>
    <name>ingot::JobValidate</name>
    <message>
        <source>%1 is not a JSON object</source>
        <translation>%1 不是 JSON 对象</translation>
    </message>
    <message>
        <source>%1 cannot be read</source>
        <translation>无法读取 %1</translation>
    </message>
    <message>
        <source>choose a training script (.py)</source>
        <translation>请选择训练脚本（.py）</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 不是文件</translation>
    </message>
    <message>
        <source>name the module to run (python -m MODULE)</source>
        <translation>请指定要运行的模块（python -m MODULE）</translation>
    </message>
    <message>
        <source>%1 is not an executable</source>
        <translation>%1 不是可执行文件</translation>
    </message>
    <message>
        <source>at least 1 process per node</source>
        <translation>每个节点至少需要 1 个进程</translation>
    </message>
    <message>
        <source>at least 1 node</source>
        <translation>至少需要 1 个节点</translation>
    </message>
    <message>
        <source>a job on this machine runs on 1 node; several nodes need remote hosts</source>
        <translation>在本机运行的任务只能使用 1 个节点；多个节点需要远程主机</translation>
    </message>
    <message>
        <source>at most %1 nodes here</source>
        <translation>此处最多 %1 个节点</translation>
    </message>
    <message>
        <source>name a model: a model folder or a built-in config</source>
        <translation>请指定模型：模型文件夹或内置配置</translation>
    </message>
    <message>
        <source>%1 is not a folder</source>
        <translation>%1 不是文件夹</translation>
    </message>
    <message>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <source>must be at least 1</source>
        <translation>必须至少为 1</translation>
    </message>
    <message>
        <source>must be positive (or -1 to train for the given epochs)</source>
        <translation>必须为正数（或设为 -1，按指定的轮次训练）</translation>
    </message>
    <message>
        <source>must be positive</source>
        <translation>必须为正数</translation>
    </message>
    <message>
        <source>must not be negative</source>
        <translation>不能为负数</translation>
    </message>
    <message>
        <source>must not be negative (0: no clipping)</source>
        <translation>不能为负数（0：不进行梯度裁剪）</translation>
    </message>
    <message>
        <source>must not be negative (0: only at the end)</source>
        <translation>不能为负数（0：仅在结束时保存）</translation>
    </message>
    <message>
        <source>tp (%1) x pp (%2) = %3 does not divide the world size %4 (%5 processes x %6 nodes)</source>
        <translation>tp（%1）× pp（%2）= %3，不能整除总进程数（world size）%4（%5 个进程 × %6 个节点）</translation>
    </message>
    <message>
        <source>%1 sequences per device do not split into %2 micro-batches</source>
        <translation>每个设备的 %1 条序列无法均分为 %2 个微批次</translation>
    </message>
    <message>
        <source>the model&apos;s %1 attention heads are not divisible by tp %2</source>
        <translation>模型的 %1 个注意力头不能被 tp %2 整除</translation>
    </message>
    <message>
        <source>the model&apos;s %1 key-value heads are not divisible by tp %2</source>
        <translation>模型的 %1 个键值头不能被 tp %2 整除</translation>
    </message>
    <message>
        <source>the model&apos;s intermediate size %1 is not divisible by tp %2</source>
        <translation>模型的中间层维度 %1 不能被 tp %2 整除</translation>
    </message>
    <message>
        <source>the vocabulary of %1 is not divisible by tp %2: turn embedding parallelism off</source>
        <translation>词表大小 %1 不能被 tp %2 整除：请关闭嵌入并行</translation>
    </message>
    <message>
        <source>%1 tokens are not divisible by tp %2, which sequence parallelism needs</source>
        <translation>%1 个 token 不能被 tp %2 整除，而序列并行要求能整除</translation>
    </message>
    <message>
        <source>the model has %1 layers, fewer than %2 stages</source>
        <translation>模型只有 %1 层，少于 %2 个流水线阶段</translation>
    </message>
    <message>
        <source>not a complete checkpoint (%1)</source>
        <translation>不是完整的检查点（%1）</translation>
    </message>
    <message>
        <source>the checkpoint was saved with --%1 %2: resume on the same layout</source>
        <translation>检查点是用 --%1 %2 保存的：请以相同的并行布局继续训练</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a variable name (letters, digits and _, not starting with a digit)</source>
        <translation>&quot;%1&quot; 不是变量名（字母、数字和 _，不能以数字开头）</translation>
    </message>
    <message>
        <source>must not be negative (0: keep every checkpoint)</source>
        <translation>不能为负数（0：保留所有检查点）</translation>
    </message>
    <message>
        <source>%1 is on each node&apos;s own disk: with %2 nodes the output folder must be on a filesystem every node shares (the cluster&apos;s shared home, /fsx)</source>
        <translation>%1 位于每个节点自己的磁盘上：使用 %2 个节点时，输出文件夹必须位于所有节点共享的文件系统上（集群的共享主目录、/fsx）</translation>
    </message>
    <message>
        <source>Precompile first needs the Neuron SDK&apos;s neuron_parallel_compile: it is neither beside the job&apos;s Python nor on the PATH where the job runs</source>
        <translation>先预编译需要 Neuron SDK 的 neuron_parallel_compile：作业的 Python 旁边和作业运行处的 PATH 上都没有它</translation>
    </message>
    <message>
        <source>Precompile first on several hosts runs as a Slurm job: use Slurm, or precompile on one node</source>
        <translation>在多台主机上先预编译需要作为 Slurm 作业运行：请使用 Slurm，或在单个节点上预编译</translation>
    </message>
    <message>
        <source>the checkpoint was saved with --%1 %2: resume on the same layout, or write it for this one with ingot-cli reshard</source>
        <translation>检查点保存时使用 --%1 %2：请在相同布局上恢复，或用 ingot-cli reshard 为当前布局写出检查点</translation>
    </message>
    <message numerus="yes">
        <source>the checkpoint was saved by %n process(es), this job has %1</source>
        <translation>
            <numerusform>检查点由 %n 个进程保存，此作业有 %1 个</numerusform>
        </translation>
    </message>
    <message>
        <source>one of auto, cpu, cuda, xla, neuron</source>
        <translation>应为 auto、cpu、cuda、xla、neuron 之一</translation>
    </message>
    <message>
        <source>written by the native engine (a DCP checkpoint), this job uses PyTorch/XLA: resume it with the native engine, or consolidate it and start from the model folder</source>
        <translation>由原生引擎写入（DCP 检查点），而此作业使用 PyTorch/XLA：请使用原生引擎恢复，或将其合并后从模型文件夹开始</translation>
    </message>
    <message>
        <source>written by the PyTorch/XLA engine (per-rank safetensors shards), this job uses the native engine: resume it with PyTorch/XLA, or consolidate it and start from the model folder</source>
        <translation>由 PyTorch/XLA 引擎写入（按 rank 划分的 safetensors 分片），而此作业使用原生引擎：请使用 PyTorch/XLA 恢复，或将其合并后从模型文件夹开始</translation>
    </message>
    <message>
        <source>one of auto, native, xla</source>
        <translation>应为 auto、native、xla 之一</translation>
    </message>
    <message>
        <source>fully sharded (ZeRO-3) shards the optimizer state already: turn ZeRO-1 off</source>
        <translation>完全分片（ZeRO-3）已对优化器状态进行分片：请关闭 ZeRO-1</translation>
    </message>
    <message>
        <source>the native engine needs torch 2.4 or later (torch.distributed.tensor); the job&apos;s Python has torch %1</source>
        <translation>原生引擎需要 torch 2.4 或更高版本（torch.distributed.tensor）；作业的 Python 中为 torch %1</translation>
    </message>
    <message>
        <source>the engine chosen is PyTorch/XLA: choose native PyTorch (Neuron 2.30 and later)</source>
        <translation>所选引擎为 PyTorch/XLA：请选择原生 PyTorch（Neuron 2.30 及更高版本）</translation>
    </message>
    <message>
        <source>automatic runs PyTorch/XLA here (%1): choose native PyTorch</source>
        <translation>自动模式在此处会运行 PyTorch/XLA（%1）：请选择原生 PyTorch</translation>
    </message>
    <message>
        <source>fully sharded runs on the native engine only; %1</source>
        <translation>完全分片仅在原生引擎上运行；%1</translation>
    </message>
    <message>
        <source>torch.compile runs on the native engine only; %1</source>
        <translation>torch.compile 仅在原生引擎上运行；%1</translation>
    </message>
    <message>
        <source>the neuron device is TorchNeuron&apos;s, on the native engine only; %1</source>
        <translation>neuron 设备属于 TorchNeuron，仅在原生引擎上可用；%1</translation>
    </message>
    <message>
        <source>the xla device needs the PyTorch/XLA engine</source>
        <translation>xla 设备需要 PyTorch/XLA 引擎</translation>
    </message>
    <message>
        <source>ZeRO-1 with tensor parallelism is not available on the native engine (ZeroRedundancyOptimizer takes no DTensor parameters): use fully sharded</source>
        <translation>原生引擎不支持 ZeRO-1 与张量并行同时使用（ZeroRedundancyOptimizer 不接受 DTensor 参数）：请使用完全分片</translation>
    </message>
    <message>
        <source>a model with tied word embeddings cannot be tensor parallel on the native engine yet</source>
        <translation>原生引擎暂不支持对使用绑定词嵌入（tied word embeddings）的模型进行张量并行</translation>
    </message>
    <message>
        <source>the job&apos;s Python could not be asked (%1)</source>
        <translation>无法查询作业的 Python（%1）</translation>
    </message>
    <message>
        <source>the job&apos;s Python does not import torch</source>
        <translation>作业的 Python 无法导入 torch</translation>
    </message>
    <message>
        <source>the job&apos;s Python does not import torch (%1)</source>
        <translation>作业的 Python 无法导入 torch（%1）</translation>
    </message>
    <message>
        <source>torch %1 with torch_xla: PyTorch/XLA</source>
        <translation>torch %1，带 torch_xla：PyTorch/XLA</translation>
    </message>
    <message>
        <source>torch %1 without torch_xla, with the neuron device: native PyTorch</source>
        <translation>torch %1，无 torch_xla，有 neuron 设备：原生 PyTorch</translation>
    </message>
    <message>
        <source>torch %1 without torch_xla: native PyTorch (no neuron device: CPU with gloo)</source>
        <translation>torch %1，无 torch_xla：原生 PyTorch（无 neuron 设备：在 CPU 上使用 gloo）</translation>
    </message>
    <message>
        <source>torch %1 has neither torch_xla nor torch.distributed.tensor (torch 2.4 and later): the PyTorch/XLA engine, on CPU</source>
        <translation>torch %1 既没有 torch_xla，也没有 torch.distributed.tensor（torch 2.4 及更高版本）：使用 PyTorch/XLA 引擎，在 CPU 上运行</translation>
    </message>
    <message>
        <source>Native PyTorch (TorchNeuron, Neuron 2.30 and later)</source>
        <translation>原生 PyTorch（TorchNeuron，Neuron 2.30 及更高版本）</translation>
    </message>
    <message>
        <source>PyTorch/XLA (Neuron 2.29 and earlier)</source>
        <translation>PyTorch/XLA（Neuron 2.29 及更早版本）</translation>
    </message>
    <message>
        <source>Automatic (what the job&apos;s Python has)</source>
        <translation>自动（取决于作业的 Python 环境）</translation>
    </message>
    <message>
        <source>%1 did not answer within 60 s</source>
        <translation>%1 未在 60 秒内响应</translation>
    </message>
    <message>
        <source>%1 does not run Python 3</source>
        <translation>%1 运行的不是 Python 3</translation>
    </message>
    <message>
        <source>there is no srun on the login node</source>
        <translation>登录节点上没有 srun</translation>
    </message>
    <message>
        <source>srun gave no compute node at once (%1)</source>
        <translation>srun 未能立即分配到计算节点（%1）</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>no Python with torch was found on %1</source>
        <translation>在 %1 上未找到带有 torch 的 Python</translation>
    </message>
    <message>
        <source>asked on the login node: %1</source>
        <translation>已在登录节点上查询：%1</translation>
    </message>
    <message>
        <source>asked on the login node: no Python is chosen</source>
        <translation>已在登录节点上查询：未选择 Python</translation>
    </message>
    <message>
        <source>the job&apos;s Python could not be asked which engine it has: %1</source>
        <translation>无法查询作业的 Python 具备哪种引擎：%1</translation>
    </message>
    <message>
        <source>it does not import torch</source>
        <translation>它无法导入 torch</translation>
    </message>
    <message>
        <source>automatic: %1</source>
        <translation>自动：%1</translation>
    </message>
    <message>
        <source>the job&apos;s Python (torch %1) has no torch_xla: the PyTorch/XLA engine runs on CPU there, never on a NeuronCore (%2)</source>
        <translation>作业的 Python（torch %1）没有 torch_xla：PyTorch/XLA 引擎在那里只会在 CPU 上运行，而不会在 NeuronCore 上运行（%2）</translation>
    </message>
    <message>
        <source>fully sharded over 1 data-parallel rank shards nothing: %1 processes = dp 1 x tp %2 x pp %3; give it 2 data-parallel ranks or more</source>
        <translation>在 1 个数据并行 rank 上完全分片不会分片任何内容：%1 个进程 = dp 1 x tp %2 x pp %3；请设置 2 个或更多数据并行 rank</translation>
    </message>
    <message>
        <source>fully sharded over dp %1 on a 2-D mesh with tp %2: FSDP2 (fully_shard) where the torch build supports the device, else FSDP1 (FullyShardedDataParallel), which is what runs on CPU</source>
        <translation>在 dp %1 上完全分片，使用 tp %2 的二维网格：若 torch 构建支持该设备则使用 FSDP2（fully_shard），否则使用 FSDP1（FullyShardedDataParallel），在 CPU 上运行的即为后者</translation>
    </message>
    <message>
        <source>fully sharded over dp %1: FSDP2 (fully_shard) where the torch build supports the device, else FSDP1 (FullyShardedDataParallel), which is what runs on CPU</source>
        <translation>在 dp %1 上完全分片：若 torch 构建支持该设备则使用 FSDP2（fully_shard），否则使用 FSDP1（FullyShardedDataParallel），在 CPU 上运行的即为后者</translation>
    </message>
    <message>
        <source>pipeline parallel on the native engine: torch.distributed.pipelining where it runs, else the backend&apos;s own pipeline schedule; the job&apos;s first log lines say which</source>
        <translation>原生引擎上的流水线并行：可用时使用 torch.distributed.pipelining，否则使用后端自身的流水线调度；作业日志的前几行会说明使用的是哪一种</translation>
    </message>
    <message>
        <source>torch.compile with the neuron backend</source>
        <translation>torch.compile，使用 neuron 后端</translation>
    </message>
    <message>
        <source>torch.compile with a CPU backend (no neuron device here)</source>
        <translation>torch.compile，使用 CPU 后端（此处没有 neuron 设备）</translation>
    </message>
    <message>
        <source>Ingot does not take a compute node to ask</source>
        <translation>Ingot 不会为询问而占用计算节点</translation>
    </message>
</context>
<context>
    <name>ingot::JobsPage</name>
    <message>
        <source>&amp;New job…</source>
        <translation>新建任务(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Remove…</source>
        <translation>删除(&amp;R)…</translation>
    </message>
    <message>
        <source>The job launcher goes here.</source>
        <translation>任务启动器将显示在这里。</translation>
    </message>
    <message>
        <source>Set up and launch a training job</source>
        <translation>设置并启动训练任务</translation>
    </message>
    <message>
        <source>Remove the selected job&apos;s folder (previewed first; outputs kept unless asked)</source>
        <translation>删除所选任务的文件夹（先预览；除非另行指定，否则保留输出）</translation>
    </message>
    <message>
        <source>Launch failed</source>
        <translation>启动失败</translation>
    </message>
    <message>
        <source>Remove job</source>
        <translation>删除任务</translation>
    </message>
    <message>
        <source>Job %1 was not removed: %2</source>
        <translation>任务 %1 未删除：%2</translation>
    </message>
    <message>
        <source>Remove the selected job</source>
        <translation>删除所选任务</translation>
    </message>
    <message>
        <source>New job…</source>
        <translation>新建作业…</translation>
    </message>
    <message>
        <source>No training jobs yet</source>
        <translation>还没有训练作业</translation>
    </message>
    <message>
        <source>New job… opens the launcher: choose the model, the parallel layout, the data and where the job runs. It checks the settings as you type and shows the exact command; Launch starts the job, and its loss, logs and checkpoints are followed here.

Jobs started with ingot-cli job launch are listed here too.</source>
        <translation>“新建作业…”会打开启动器：选择模型、并行布局、数据以及作业运行的位置。它会在你输入时检查设置并显示确切的命令；“启动”开始作业，其损失、日志和检查点会在这里跟踪。

用 ingot-cli job launch 启动的作业也会列在这里。</translation>
    </message>
    <message>
        <source>No job selected</source>
        <translation>未选择作业</translation>
    </message>
    <message>
        <source>Select a job in the list to follow its loss, logs and checkpoints; New job… sets up another.</source>
        <translation>在列表中选择一个作业以跟踪其损失、日志和检查点；“新建作业…”可设置另一个作业。</translation>
    </message>
    <message>
        <source>Com&amp;pare…</source>
        <translation>比较(&amp;P)…</translation>
    </message>
    <message>
        <source>Compare the selected runs: their curves, settings and graphs side by side (select two or more)</source>
        <translation>比较所选运行：并排显示其曲线、设置和图（请选择两个或更多）</translation>
    </message>
</context>
<context>
    <name>ingot::Keyboard</name>
    <message>
        <source>Open the list&apos;s context menu</source>
        <translation>打开列表的上下文菜单</translation>
    </message>
</context>
<context>
    <name>ingot::Keychain</name>
    <message>
        <source>The keychain was asked on the UI thread, which Ingot never does: nothing was read or written. Please report this.</source>
        <translation>在 UI 线程上访问了钥匙串，而 Ingot 从不这样做：未读取或写入任何内容。请报告此问题。</translation>
    </message>
    <message>
        <source>No keychain service is running.</source>
        <translation>没有正在运行的钥匙串服务。</translation>
    </message>
    <message>
        <source>Keychain error: %1</source>
        <translation>钥匙串错误：%1</translation>
    </message>
    <message>
        <source>the system keychain</source>
        <translation>系统钥匙串</translation>
    </message>
    <message>
        <source>The system keychain did not answer within %1 s.</source>
        <translation>系统钥匙串在 %1 秒内没有响应。</translation>
    </message>
    <message>
        <source>Ingot is quitting: the system keychain was not asked.</source>
        <translation>Ingot 正在退出：未询问系统钥匙串。</translation>
    </message>
    <message>
        <source>The system keychain is not answering: an earlier request still waits.</source>
        <translation>系统钥匙串没有响应：之前的请求仍在等待。</translation>
    </message>
    <message>
        <source>Ingot is quitting: the system keychain did not answer.</source>
        <translation>Ingot 正在退出：系统钥匙串没有响应。</translation>
    </message>
    <message>
        <source>Stopped while waiting for the system keychain.</source>
        <translation>在等待系统钥匙串时已停止。</translation>
    </message>
    <message>
        <source>No keychain service is running (no D-Bus session bus).</source>
        <translation>没有运行中的钥匙串服务（没有 D-Bus 会话总线）。</translation>
    </message>
</context>
<context>
    <name>ingot::KnownCaches</name>
    <message>
        <source>%1 is not a Hub repo id (org/name)</source>
        <translation>%1 不是 Hub 仓库 ID（组织/名称）</translation>
    </message>
    <message>
        <source>%1: a host&apos;s cache is named host:/absolute/path</source>
        <translation>%1：主机的缓存写作 主机:/绝对路径</translation>
    </message>
    <message>
        <source>an empty cache name</source>
        <translation>缓存名称为空</translation>
    </message>
    <message>
        <source>%1 is a URL; another cache is a folder, host:/path, s3://bucket/prefix or hub:org/name</source>
        <translation>%1 是一个 URL；其他缓存应是文件夹、host:/path、s3://bucket/prefix 或 hub:org/name</translation>
    </message>
</context>
<context>
    <name>ingot::LaunchForm</name>
    <message>
        <source>there is no preset named %1</source>
        <translation>没有名为 %1 的预设</translation>
    </message>
    <message>
        <source>the preset %1 cannot be used: %2</source>
        <translation>预设 %1 无法使用：%2</translation>
    </message>
    <message>
        <source>a quote is not closed (or the line ends in a backslash)</source>
        <translation>有引号未闭合（或该行以反斜杠结尾）</translation>
    </message>
    <message>
        <source>choose a Hugging Face model folder (with config.json)</source>
        <translation>请选择一个 Hugging Face 模型文件夹（含 config.json）</translation>
    </message>
    <message>
        <source>choose a folder of text files</source>
        <translation>请选择一个文本文件所在的文件夹</translation>
    </message>
    <message>
        <source>choose a text file</source>
        <translation>请选择一个文本文件</translation>
    </message>
    <message>
        <source>not a number (write 0.001 or 1e-3)</source>
        <translation>不是数字（请写成 0.001 或 1e-3）</translation>
    </message>
    <message>
        <source>%1 is set twice</source>
        <translation>%1 被设置了两次</translation>
    </message>
    <message>
        <source>a job on %1 nodes runs on %1 hosts: name the other %2 (comma-separated)</source>
        <translation>在 %1 个节点上运行的任务需要 %1 台主机：请列出另外 %2 台（以逗号分隔）</translation>
    </message>
    <message>
        <source>no Python with torch was found on %1: choose one</source>
        <translation>在 %1 上未找到带 torch 的 Python：请选择一个</translation>
    </message>
    <message>
        <source>No command: %1</source>
        <translation>没有命令：%1</translation>
    </message>
    <message>
        <source>Fix these before launching:</source>
        <translation>启动前请先修正以下问题：</translation>
    </message>
    <message>
        <source>The folder does not exist yet: the first compile creates it.</source>
        <translation>该文件夹尚不存在：首次编译时会创建它。</translation>
    </message>
    <message>
        <source>The cache could not be read: %1</source>
        <translation>无法读取缓存：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n failed entry(s): the compiler reuses a failure instead of compiling that graph again, so a job that needs one fails at once.</source>
        <translation>
            <numerusform>%n 个失败条目：编译器会直接复用失败结果，而不会重新编译该计算图，因此需要这些条目的任务会立即失败。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n locked entry(s) and no compiler running: stale locks from a killed compile; a job that needs one waits for the lock.</source>
        <translation>
            <numerusform>%n 个已锁定条目，但没有正在运行的编译器：这是被终止的编译遗留的过期锁；需要这些条目的任务会一直等待锁释放。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n entry(s) locked by a compile that is running now.</source>
        <translation>
            <numerusform>%n 个条目被正在运行的编译锁定。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n compiled entry(s), none failed or locked.</source>
        <translation>
            <numerusform>%n 个已编译条目，没有失败或已锁定的条目。</numerusform>
        </translation>
    </message>
    <message>
        <source>Compile caching is off for this job (--no_cache in NEURON_CC_FLAGS): every graph compiles afresh.</source>
        <translation>此任务已关闭编译缓存（NEURON_CC_FLAGS 中有 --no_cache）：每个计算图都会重新编译。</translation>
    </message>
    <message>
        <source>This job compiles into %1</source>
        <translation>此任务编译到 %1</translation>
    </message>
    <message>
        <source>A host&apos;s cache is checked on the Remote hosts page.</source>
        <translation>主机上的缓存请在“远程主机”页面检查。</translation>
    </message>
    <message>
        <source>Ingot checks only local caches.</source>
        <translation>Ingot 只检查本地缓存。</translation>
    </message>
    <message>
        <source>Checking the cache…</source>
        <translation>正在检查缓存…</translation>
    </message>
    <message>
        <source>the compile cache %1: %2</source>
        <translation>编译缓存 %1：%2</translation>
    </message>
    <message>
        <source>Asking the job&apos;s Python which engine fits…</source>
        <translation>正在询问作业的 Python 适合哪种引擎…</translation>
    </message>
    <message>
        <source>No engine proposed: %1</source>
        <translation>未给出建议引擎：%1</translation>
    </message>
    <message>
        <source>Proposed: %1.</source>
        <translation>建议：%1。</translation>
    </message>
    <message>
        <source>Proposed: %1; %2 is chosen.</source>
        <translation>建议：%1；当前选择的是 %2。</translation>
    </message>
    <message>
        <source>Bring compiled graphs first: for a job on a host, ingot-cli job launch --seed-cache does it.</source>
        <translation>预先带入已编译的图：对于在主机上运行的作业，可使用 ingot-cli job launch --seed-cache。</translation>
    </message>
    <message>
        <source>Looking for the last run&apos;s graphs…</source>
        <translation>正在查找上次运行的图…</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%1，位于 %2</translation>
    </message>
    <message>
        <source>none of the places Ingot knows holds the last run&apos;s graphs</source>
        <translation>Ingot 已知的位置中均没有上次运行的图</translation>
    </message>
    <message>
        <source>Already in the cache: %1; found: %2; nowhere: %3.</source>
        <translation>已在缓存中：%1；已找到：%2；未找到：%3。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Stopped while bringing compiled graphs: the job was not started.</source>
        <translation>预先带入已编译的图时已停止：作业未启动。</translation>
    </message>
</context>
<context>
    <name>ingot::LaunchSeed</name>
    <message>
        <source>Bring compiled graphs first: %1</source>
        <translation>预先带入已编译的图：%1</translation>
    </message>
    <message numerus="yes">
        <source>Before training: the %n graph(s) of %1 the cache lacks are looked for in %2 and copied into %3.</source>
        <translation>
            <numerusform>训练前：在 %2 中查找缓存缺少的 %1 的 %n 个图，并复制到 %3。</numerusform>
        </translation>
    </message>
    <message>
        <source>A Slurm job: from this machine before sbatch, into the cache folder the nodes share.</source>
        <translation>Slurm 作业：在 sbatch 之前从本机复制到各节点共享的缓存文件夹。</translation>
    </message>
    <message>
        <source>the job does not cache (--no_cache in NEURON_CC_FLAGS)</source>
        <translation>该作业不使用缓存（NEURON_CC_FLAGS 中有 --no_cache）</translation>
    </message>
    <message>
        <source>no place to look in was chosen</source>
        <translation>未选择要查找的位置</translation>
    </message>
    <message>
        <source>no earlier run with these settings names its graphs</source>
        <translation>使用这些设置的早先运行均未列出其图</translation>
    </message>
    <message>
        <source>Compiled graphs brought first: %1</source>
        <translation>已预先带入已编译的图：%1</translation>
    </message>
</context>
<context>
    <name>ingot::LocalCachePage</name>
    <message>
        <source>Scanning %1…</source>
        <translation>正在扫描 %1…</translation>
    </message>
    <message>
        <source>Checking for changes…</source>
        <translation>正在检查变化…</translation>
    </message>
    <message numerus="yes">
        <source>Scanning… %n entries so far</source>
        <translation>
            <numerusform>正在扫描…已找到 %n 个条目</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Rescan</source>
        <translation>重新扫描(&amp;R)</translation>
    </message>
    <message>
        <source>Look for changes (F5); unchanged entries are not read again</source>
        <translation>检查变化（F5）；未变化的条目不会重新读取</translation>
    </message>
    <message>
        <source>Rescan &amp;everything</source>
        <translation>全部重新扫描(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Add cache folder…</source>
        <translation>添加缓存文件夹(&amp;A)…</translation>
    </message>
    <message>
        <source>Delete &amp;failed entries…</source>
        <translation>删除失败条目(&amp;F)…</translation>
    </message>
    <message>
        <source>Preview, then delete every FAILED entry so the next run compiles it again</source>
        <translation>先预览，再删除所有失败（FAILED）条目，以便下次运行时重新编译</translation>
    </message>
    <message>
        <source>Clear stale &amp;locks…</source>
        <translation>清除过期锁(&amp;L)…</translation>
    </message>
    <message>
        <source>Preview, then remove *.lock files; refused while neuronx-cc runs</source>
        <translation>先预览，再删除 *.lock 文件；neuronx-cc 运行期间会拒绝执行</translation>
    </message>
    <message>
        <source>Remove other compiler &amp;versions…</source>
        <translation>删除其他编译器版本(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Prune…</source>
        <translation>清理(&amp;P)…</translation>
    </message>
    <message>
        <source>Preview, then remove entries unused longer than the TTL and least recently used ones while the cache is over its size limit</source>
        <translation>先预览，再删除超过 TTL 未使用的条目；缓存超出大小上限时，再按最近最少使用的顺序删除条目</translation>
    </message>
    <message>
        <source>Delete selected failed entries…</source>
        <translation>删除所选失败条目…</translation>
    </message>
    <message>
        <source>Cache:</source>
        <translation>缓存：</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <source>Problems only</source>
        <translation>仅问题</translation>
    </message>
    <message>
        <source>%1 (Neuron default for this environment)</source>
        <translation>%1（此环境下的 Neuron 默认值）</translation>
    </message>
    <message>
        <source>Why this folder: %1</source>
        <translation>选择此文件夹的原因：%1</translation>
    </message>
    <message>
        <source>A sample cache Ingot generated, safe to experiment with. The Neuron default here: %1</source>
        <translation>Ingot 生成的示例缓存，可放心试验。此处的 Neuron 默认位置：%1</translation>
    </message>
    <message>
        <source>A folder you added. The Neuron runtime here would use %1 (%2)</source>
        <translation>您添加的文件夹。此处的 Neuron 运行时会使用 %1（%2）</translation>
    </message>
    <message>
        <source>Add a Neuron compile cache folder</source>
        <translation>添加 Neuron 编译缓存文件夹</translation>
    </message>
    <message>
        <source>Sample cache</source>
        <translation>示例缓存</translation>
    </message>
    <message>
        <source>Could not write the sample cache: %1</source>
        <translation>无法写入示例缓存：%1</translation>
    </message>
    <message>
        <source>No Neuron compile cache here yet</source>
        <translation>这里还没有 Neuron 编译缓存</translation>
    </message>
    <message>
        <source>This cache cannot be shown</source>
        <translation>无法显示此缓存</translation>
    </message>
    <message>
        <source>Ingot looks where the Neuron runtime does. %1

Training or compiling on this machine creates the cache. Meanwhile you can add another folder, or open a sample cache to see every feature at work.</source>
        <translation>Ingot 会在 Neuron 运行时查找的位置查找缓存。%1

在本机上训练或编译时会创建缓存。在此之前，您可以添加其他文件夹，或打开示例缓存体验所有功能。</translation>
    </message>
    <message>
        <source>Choose another folder, or open the sample cache.</source>
        <translation>请选择其他文件夹，或打开示例缓存。</translation>
    </message>
    <message>
        <source>The cache is empty</source>
        <translation>缓存为空</translation>
    </message>
    <message>
        <source>%1 exists but holds no compiled entries yet. It fills as jobs compile; Ingot follows it live.</source>
        <translation>%1 已存在，但还没有已编译的条目。任务编译时会逐步写入；Ingot 会实时跟踪。</translation>
    </message>
    <message numerus="yes">
        <source>Scan cancelled: %n entries read.</source>
        <translation>
            <numerusform>扫描已取消：已读取 %n 个条目。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n entries scanned in %1</source>
        <translation>
            <numerusform>已扫描 %n 个条目，用时 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Total size</source>
        <translation>总大小</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Unknown items</source>
        <translation>未知项</translation>
    </message>
    <message>
        <source>Linked (HF hub cache)</source>
        <translation>已链接（HF hub 缓存）</translation>
    </message>
    <message>
        <source>On disk (sparse)</source>
        <translation>磁盘占用（稀疏）</translation>
    </message>
    <message>
        <source>Compiler versions</source>
        <translation>编译器版本</translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n warning(s) about this cache: unknown files, odd names, broken or outside links. &lt;a href=&apos;#&apos;&gt;Show them&lt;/a&gt;</source>
        <translation>
            <numerusform>⚠ 此缓存有 %n 条警告：未知文件、异常名称、失效或指向外部的链接。&lt;a href=&apos;#&apos;&gt;查看&lt;/a&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s) in %1. Ingot never deletes unknown items and never follows links.</source>
        <translation>
            <numerusform>%1 中有 %n 条警告。Ingot 从不删除未知项，也从不跟随链接。</numerusform>
        </translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n selected failed entries…</source>
        <translation>
            <numerusform>删除所选的 %n 个失败条目…</numerusform>
        </translation>
    </message>
    <message>
        <source>Push to the Hub cache repo…</source>
        <translation>推送到 Hub 缓存仓库…</translation>
    </message>
    <message>
        <source>Upload the selected successful entries to the Hub cache repo in use (Transfers shows progress)</source>
        <translation>将所选的成功条目上传到当前使用的 Hub 缓存仓库（进度见“传输”页）</translation>
    </message>
    <message>
        <source>Copy to a remote host…</source>
        <translation>复制到远程主机…</translation>
    </message>
    <message>
        <source>&amp;Back to the local cache</source>
        <translation>返回本地缓存(&amp;B)</translation>
    </message>
    <message>
        <source>Show the compile cache of this machine again</source>
        <translation>重新显示本机的编译缓存</translation>
    </message>
    <message>
        <source>&lt;b&gt;Remote host %1&lt;/b&gt; &amp;mdash; compile cache %2&lt;br&gt;&lt;small&gt;Read over SSH. A remote cache cannot be watched: F5 looks for changes, or let Ingot look every so often.&lt;/small&gt;</source>
        <translation>&lt;b&gt;远程主机 %1&lt;/b&gt; &amp;mdash; 编译缓存 %2&lt;br&gt;&lt;small&gt;通过 SSH 读取。远程缓存无法实时监视：按 F5 检查变化，或让 Ingot 定期检查。&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Look for changes:</source>
        <translation>检查变化：</translation>
    </message>
    <message>
        <source>only on F5</source>
        <translation>仅在按 F5 时</translation>
    </message>
    <message>
        <source>every 30 s</source>
        <translation>每 30 秒</translation>
    </message>
    <message>
        <source>every 2 min</source>
        <translation>每 2 分钟</translation>
    </message>
    <message>
        <source>This cache cannot be watched for changes (it is on another host): Ingot can look for changes every so often</source>
        <translation>此缓存位于另一台主机上，无法实时监视变化：Ingot 可以定期检查变化</translation>
    </message>
    <message>
        <source>%1 (remote host)</source>
        <translation>%1（远程主机）</translation>
    </message>
    <message>
        <source>A folder on %1.</source>
        <translation>%1 上的文件夹。</translation>
    </message>
    <message>
        <source>Reading %1 over SSH…</source>
        <translation>正在通过 SSH 读取 %1…</translation>
    </message>
    <message>
        <source>Writing the sample cache to %1…</source>
        <translation>正在将示例缓存写入 %1…</translation>
    </message>
    <message>
        <source>Could not write the sample cache.</source>
        <translation>无法写入示例缓存。</translation>
    </message>
    <message>
        <source>The cache on %1 cannot be shown</source>
        <translation>无法显示 %1 上的缓存</translation>
    </message>
    <message>
        <source>Check the connection to %1 on the Remote hosts page (Ctrl+4), press F5 to try again, or go back to the local cache.</source>
        <translation>请在“远程主机”页（Ctrl+4）检查与 %1 的连接，按 F5 重试，或返回本地缓存。</translation>
    </message>
    <message>
        <source>%1 exists but holds no compiled entries yet. It fills as jobs compile there; press F5 to look again.</source>
        <translation>%1 已存在，但还没有已编译的条目。任务在该主机上编译时会逐步写入；按 F5 可重新查看。</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n unchanged, not read again)</source>
        <translation>
            <numerusform>%1（%n 个未变化，未重新读取）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1; following changes on disk</source>
        <translation>%1；正在跟踪磁盘上的变化</translation>
    </message>
    <message numerus="yes">
        <source>%1; looking for changes every %n s</source>
        <translation>
            <numerusform>%1；每 %n 秒检查一次变化</numerusform>
        </translation>
    </message>
    <message>
        <source>%1; F5 looks for changes</source>
        <translation>%1；按 F5 检查变化</translation>
    </message>
    <message numerus="yes">
        <source>Push %n successful entries to the Hub cache repo…</source>
        <translation>
            <numerusform>将 %n 个成功条目推送到 Hub 缓存仓库…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copy %n successful entries to a remote host…</source>
        <translation>
            <numerusform>将 %n 个成功条目复制到远程主机…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copy %n successful entries to this machine&apos;s cache</source>
        <translation>
            <numerusform>将 %n 个成功条目复制到本机缓存</numerusform>
        </translation>
    </message>
    <message>
        <source>Checking whether neuronx-cc is running…</source>
        <translation>正在检查 neuronx-cc 是否在运行…</translation>
    </message>
    <message>
        <source>Find: go to the filter</source>
        <translation>查找：转到筛选框</translation>
    </message>
    <message>
        <source>%1 (S3)</source>
        <translation>%1（S3）</translation>
    </message>
    <message>
        <source>Listing %1…</source>
        <translation>正在列出 %1…</translation>
    </message>
    <message>
        <source>Open an S3 cache</source>
        <translation>打开 S3 缓存</translation>
    </message>
    <message>
        <source>The S3 compile cache (as NEURON_COMPILE_CACHE_URL names it):</source>
        <translation>S3 编译缓存（与 NEURON_COMPILE_CACHE_URL 的写法相同）：</translation>
    </message>
    <message>
        <source>An S3 compile cache, listed with this machine&apos;s AWS keys (the environment, AWS_PROFILE, ~/.aws, or the instance role).</source>
        <translation>S3 编译缓存，使用本机的 AWS 密钥列出（环境变量、AWS_PROFILE、~/.aws 或实例角色）。</translation>
    </message>
    <message>
        <source>The S3 cache %1 cannot be shown</source>
        <translation>无法显示 S3 缓存 %1</translation>
    </message>
    <message>
        <source>Check the AWS keys (the environment, AWS_PROFILE, ~/.aws), the region and the endpoint, press F5 to try again, or go back to the local cache.</source>
        <translation>请检查 AWS 密钥（环境变量、AWS_PROFILE、~/.aws）、区域和端点，按 F5 重试，或返回本地缓存。</translation>
    </message>
    <message>
        <source>TorchNeuron keys (File menu)</source>
        <translation>TorchNeuron 键（文件菜单）</translation>
    </message>
    <message>
        <source>List and maintain an S3 compile cache (s3://bucket/prefix, as NEURON_COMPILE_CACHE_URL names it) with this machine&apos;s AWS keys</source>
        <translation>使用本机的 AWS 密钥列出并维护 S3 编译缓存（s3://bucket/prefix，与 NEURON_COMPILE_CACHE_URL 的写法相同）</translation>
    </message>
    <message>
        <source>&amp;TorchNeuron / vLLM-Neuron cache…</source>
        <translation>&amp;TorchNeuron / vLLM-Neuron 缓存…</translation>
    </message>
    <message>
        <source>The other compile-cache format: one folder per key with a .compilation_complete marker</source>
        <translation>另一种编译缓存格式：每个键一个文件夹，带有 .compilation_complete 标记</translation>
    </message>
    <message>
        <source>&lt;b&gt;S3 cache %1&lt;/b&gt;&lt;br&gt;&lt;small&gt;Listed with this machine&apos;s AWS keys (as the AWS CLI finds them). An S3 cache cannot be watched: F5 looks for changes, or let Ingot look every so often. Deleting re-lists each entry right before it goes.&lt;/small&gt;</source>
        <translation>&lt;b&gt;S3 缓存 %1&lt;/b&gt;&lt;br&gt;&lt;small&gt;使用本机的 AWS 密钥列出（查找方式与 AWS CLI 相同）。S3 缓存无法监视：按 F5 查看变化，或让 Ingot 定期查看。删除前会立即重新列出每个条目。&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;S3 cache %1 on %2&lt;/b&gt;&lt;br&gt;&lt;small&gt;Read on %2 by its own AWS CLI with its own keys, which never leave it. It cannot be watched: F5 looks for changes, or let Ingot look every so often.&lt;/small&gt;</source>
        <translation>&lt;b&gt;%2 上的 S3 缓存 %1&lt;/b&gt;&lt;br&gt;&lt;small&gt;在 %2 上由其自身的 AWS CLI 用其自己的密钥读取，密钥从不离开该主机。无法监视：按 F5 查看变化，或让 Ingot 定期查看。&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Whether a compile on any machine holds an S3 cache&apos;s locks cannot be seen from here, so none is cleared as stale: the preview asks for an age, and only lock objects older than it are removed (ingot-cli cache clear-locks --older-than AGE does the same)</source>
        <translation>从这里无法看出任何机器上的编译是否持有 S3 缓存的锁，因此不会把任何锁当作陈旧锁清除：预览会询问一个时长，只清除早于它的锁对象（ingot-cli cache clear-locks --older-than AGE 的作用相同）</translation>
    </message>
    <message>
        <source>A compile on any machine may hold these locks.</source>
        <translation>任何机器上的编译都可能持有这些锁。</translation>
    </message>
    <message>
        <source>Open an S&amp;3 cache…</source>
        <translation>打开 S3 缓存(&amp;3)…</translation>
    </message>
    <message>
        <source>Open sa&amp;mple cache</source>
        <translation>打开示例缓存(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Remove matching…</source>
        <translation>删除匹配项(&amp;R)…</translation>
    </message>
    <message>
        <source>Preview, then remove the entries the filter&apos;s expressions select (never locked ones), as ingot-cli cache rm --filter does</source>
        <translation>先预览，再删除过滤表达式选中的条目（绝不删除已锁定的条目），与 ingot-cli cache rm --filter 相同</translation>
    </message>
    <message>
        <source>Filter by entry or compiler version, or size&gt;1GB used&gt;30d state=failed (Ctrl+F)</source>
        <translation>按条目或编译器版本过滤，或输入 size&gt;1GB used&gt;30d state=failed（Ctrl+F）</translation>
    </message>
    <message>
        <source>Words to look for in entries&apos; names, or expressions that must all hold (as ingot-cli cache list --filter):
size&gt;1GB  size&lt;=500MiB  used&gt;30d  used&lt;2h  state=failed  state!=success  compiler=2.15  name=MODULE_12*</source>
        <translation>在条目名称中查找的词，或必须全部满足的表达式（与 ingot-cli cache list --filter 相同）：
size&gt;1GB  size&lt;=500MiB  used&gt;30d  used&lt;2h  state=failed  state!=success  compiler=2.15  name=MODULE_12*</translation>
    </message>
</context>
<context>
    <name>ingot::LocalCacheStore</name>
    <message>
        <source>The cache folder %1 does not exist.</source>
        <translation>缓存文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>Cannot open the cache folder %1: %2.</source>
        <translation>无法打开缓存文件夹 %1：%2。</translation>
    </message>
    <message>
        <source>%1 is not a folder, so it cannot be a compile cache.</source>
        <translation>%1 不是文件夹，因此不可能是编译缓存。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <source>Refused to read %1: the path leaves the cache root.</source>
        <translation>拒绝读取 %1：该路径超出了缓存根目录。</translation>
    </message>
    <message>
        <source>%1 is not a regular file.</source>
        <translation>%1 不是普通文件。</translation>
    </message>
    <message>
        <source>Refused to remove &quot;%1&quot;: the path is outside the cache root.</source>
        <translation>拒绝删除“%1”：该路径位于缓存根目录之外。</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2.</source>
        <translation>无法删除 %1：%2。</translation>
    </message>
    <message>
        <source>Could not fully remove %1: %2. What remains was left in place.</source>
        <translation>未能完全删除 %1：%2。剩余部分保留在原处。</translation>
    </message>
    <message>
        <source>Could not fully remove %1: %2. What remains is in %3.</source>
        <translation>未能完全删除 %1：%2。剩余部分位于 %3 中。</translation>
    </message>
    <message>
        <source>Cannot tell whether neuronx-cc is running: /proc is not available.</source>
        <translation>无法确定 neuronx-cc 是否正在运行：/proc 不可用。</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>no longer exists</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <source>is not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <source>is a symbolic link (links are never followed)</source>
        <translation>是符号链接（从不跟随链接）</translation>
    </message>
    <message>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <source>the file system is read-only</source>
        <translation>文件系统为只读</translation>
    </message>
    <message>
        <source>is in use</source>
        <translation>正在使用中</translation>
    </message>
    <message>
        <source>is not empty</source>
        <translation>不为空</translation>
    </message>
    <message>
        <source>input/output error</source>
        <translation>输入/输出错误</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2. It is now in %3.</source>
        <translation>无法删除 %1：%2。它现在位于 %3 中。</translation>
    </message>
    <message>
        <source>%1 is locked now (a compile started); it was left as it is.</source>
        <translation>%1 现已被锁定（有编译开始了）；已保持原样。</translation>
    </message>
    <message>
        <source>%1 is locked now (a compile started), and could not be put back: it is in %2.</source>
        <translation>%1 现已被锁定（有编译开始了），且无法放回原处：它位于 %2 中。</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2 (%3). Nothing of it was removed.</source>
        <translation>无法删除 %1：%2（%3）。其中的内容均未删除。</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2 (%3). Nothing of it was removed; it is now in %4.</source>
        <translation>无法删除 %1：%2（%3）。其中的内容均未删除；它现在位于 %4 中。</translation>
    </message>
</context>
<context>
    <name>ingot::LocalCopy</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>shorter than listed</source>
        <translation>比列出的短</translation>
    </message>
    <message>
        <source>Not a cache entry&apos;s name: %1</source>
        <translation>不是缓存条目的名称：%1</translation>
    </message>
    <message>
        <source>Not in %1.</source>
        <translation>不在 %1 中。</translation>
    </message>
    <message>
        <source>Already in %1; left as it is.</source>
        <translation>已在 %1 中；保持原样。</translation>
    </message>
    <message>
        <source>Another transfer is writing this entry; it was left alone. Try again when that one ends.</source>
        <translation>另一个传输正在写入此条目；已跳过。请在其结束后重试。</translation>
    </message>
    <message>
        <source>The source cache cannot be read: %1</source>
        <translation>无法读取源缓存：%1</translation>
    </message>
</context>
<context>
    <name>ingot::LocalJobRunner</name>
    <message>
        <source>did not answer within 30 s</source>
        <translation>30 秒内无响应</translation>
    </message>
    <message>
        <source>does not run Python 3</source>
        <translation>不是可用的 Python 3</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Cannot start /bin/sh: %1</source>
        <translation>无法启动 /bin/sh：%1</translation>
    </message>
    <message>
        <source>Refused to remove %1: it is not inside %2.</source>
        <translation>拒绝删除 %1：它不在 %2 内。</translation>
    </message>
    <message>
        <source>The machine restarted since the job started: process %1 is not the job&apos;s.</source>
        <translation>任务启动后机器已重启：进程 %1 不是该任务的进程。</translation>
    </message>
    <message>
        <source>Process %1 has ended (its pid is not the job&apos;s launcher any more).</source>
        <translation>进程 %1 已结束（其 pid 已不再属于该任务的启动器）。</translation>
    </message>
    <message>
        <source>Cannot signal process %1: %2</source>
        <translation>无法向进程 %1 发送信号：%2</translation>
    </message>
    <message>
        <source>No free TCP port on 127.0.0.1 for the rendezvous.</source>
        <translation>127.0.0.1 上没有可用于 rendezvous 的空闲 TCP 端口。</translation>
    </message>
    <message>
        <source>Refused to write %1: not a file name.</source>
        <translation>拒绝写入 %1：不是文件名。</translation>
    </message>
    <message>
        <source>Refused to write %1: its folder is a link (never followed).</source>
        <translation>拒绝写入 %1：其文件夹是链接（从不跟随）。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot write %1: a folder has that name.</source>
        <translation>无法写入 %1：已有同名文件夹。</translation>
    </message>
    <message>
        <source>Cannot create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
    <message>
        <source>a symbolic link (not followed)</source>
        <translation>是符号链接（不跟随）</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>This machine has no ingot-cli (beside Ingot or on the PATH).</source>
        <translation>本机没有 ingot-cli（Ingot 旁边和 PATH 中都没有）。</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2 (what remains is in %3)</source>
        <translation>无法删除 %1：%2（剩余内容位于 %3）</translation>
    </message>
    <message>
        <source>cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>not asked: the search was stopped</source>
        <translation>未询问：搜索已停止</translation>
    </message>
    <message>
        <source>its answer to Ingot&apos;s probe was refused: %1</source>
        <translation>它对 Ingot 探测的响应被拒绝：%1</translation>
    </message>
    <message>
        <source>it printed nothing</source>
        <translation>它没有输出任何内容</translation>
    </message>
    <message>
        <source>a line of %1 bytes, more than the probe prints</source>
        <translation>一行长达 %1 字节，超出探测程序的输出长度</translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <source>a version that is not a version</source>
        <translation>版本号无效</translation>
    </message>
    <message>
        <source>a flag that is not true or false</source>
        <translation>标志值既不是 true 也不是 false</translation>
    </message>
    <message>
        <source>an error that is not text</source>
        <translation>错误信息不是文本</translation>
    </message>
</context>
<context>
    <name>ingot::Lookup</name>
    <message>
        <source>No cached entries found for %1.</source>
        <translation>未找到 %1 的缓存条目。</translation>
    </message>
    <message>
        <source>Cached entries for %1</source>
        <translation>%1 的缓存条目</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message numerus="yes">
        <source>Incomplete: %n registry folder(s) or file(s) of %1 could not be read, so entries stored there are missing from the result:</source>
        <translation>
            <numerusform>结果不完整：%1 中有 %n 个注册表文件夹或文件无法读取，存储在其中的条目未包含在结果中：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>  and %n more.</source>
        <translation>
            <numerusform>  以及另外 %n 个。</numerusform>
        </translation>
    </message>
    <message>
        <source>Run the lookup again; if it keeps failing, check the repo and your access on the Hub.</source>
        <translation>请重新运行查找；如果仍然失败，请检查该仓库以及你在 Hub 上的访问权限。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a model id: use org/name, as on the Hub (e.g. meta-llama/Llama-3.1-8B).</source>
        <translation>“%1”不是模型 ID：请使用 Hub 上的 org/name 格式（例如 meta-llama/Llama-3.1-8B）。</translation>
    </message>
</context>
<context>
    <name>ingot::LookupModel</name>
    <message>
        <source>(unknown shape)</source>
        <translation>（格式未知）</translation>
    </message>
    <message>
        <source>%1
registry layout: %2</source>
        <translation>%1
注册表结构：%2</translation>
    </message>
    <message>
        <source>batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>instance type</source>
        <translation>实例类型</translation>
    </message>
    <message>
        <source>compiler version</source>
        <translation>编译器版本</translation>
    </message>
    <message>
        <source>checkpoint revision</source>
        <translation>检查点修订版本</translation>
    </message>
</context>
<context>
    <name>ingot::MainWindow</name>
    <message>
        <source>Ingot</source>
        <translation>Ingot</translation>
    </message>
    <message>
        <source>Local cache</source>
        <translation>本地缓存</translation>
    </message>
    <message>
        <source>The Neuron compile cache on this machine (Ctrl+1)</source>
        <translation>本机上的 Neuron 编译缓存（Ctrl+1）</translation>
    </message>
    <message>
        <source>Cancel the scan (Esc)</source>
        <translation>取消扫描（Esc）</translation>
    </message>
    <message>
        <source>%1 — Ingot</source>
        <translation>%1 — Ingot</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Cancel scan</source>
        <translation>取消扫描(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Cache</source>
        <translation>缓存(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Local cache</source>
        <translation>本地缓存(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Ingot</source>
        <translation>关于 Ingot(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
    <message>
        <source>About Ingot</source>
        <translation>关于 Ingot</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Ingot %1&lt;/h3&gt;&lt;p&gt;Compile caches, Hub caches, training jobs and checkpoints for AWS Trainium with optimum-neuron and torch-neuronx.&lt;/p&gt;&lt;p&gt;Ingot shows what the opaque Neuron compile cache holds, which entries failed, which locks are stale and what can go, and maintains it safely: every action is previewed first.&lt;/p&gt;&lt;p&gt;Built with Qt %2. Settings: &lt;tt&gt;%3&lt;/tt&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Ingot %1&lt;/h3&gt;&lt;p&gt;面向 AWS Trainium 的编译缓存、Hub 缓存、训练任务和检查点管理工具，支持 optimum-neuron 和 torch-neuronx。&lt;/p&gt;&lt;p&gt;Ingot 让不透明的 Neuron 编译缓存一目了然：其中有哪些内容、哪些条目失败、哪些锁已过期、哪些可以删除；并能安全地维护缓存：每项操作都会先预览。&lt;/p&gt;&lt;p&gt;基于 Qt %2 构建。设置文件：&lt;tt&gt;%3&lt;/tt&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Hub caches</source>
        <translation>Hub 缓存</translation>
    </message>
    <message>
        <source>Compile caches shared on the Hugging Face Hub: browse, compare, look up (Ctrl+2)</source>
        <translation>Hugging Face Hub 上共享的编译缓存：浏览、比较、查找（Ctrl+2）</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Training jobs: launch, follow their loss and logs, stop, resume (Ctrl+3)</source>
        <translation>训练任务：启动、跟踪损失和日志、停止、继续（Ctrl+3）</translation>
    </message>
    <message>
        <source>Remote hosts</source>
        <translation>远程主机</translation>
    </message>
    <message>
        <source>trn hosts over SSH: connect, and show their compile caches (Ctrl+4)</source>
        <translation>通过 SSH 访问 trn 主机：连接并查看其编译缓存（Ctrl+4）</translation>
    </message>
    <message>
        <source>Transfers</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>Pulls, pushes and copies of compiled modules: progress, pause, resume, retry (Ctrl+5)</source>
        <translation>已编译模块的拉取、推送和复制：查看进度、暂停、继续、重试（Ctrl+5）</translation>
    </message>
    <message>
        <source>Nothing queued</source>
        <translation>未加入队列</translation>
    </message>
    <message>
        <source>Queued: %1. Progress in Transfers (Ctrl+5).</source>
        <translation>已加入队列：%1。进度见“传输”页（Ctrl+5）。</translation>
    </message>
    <message numerus="yes">
        <source>%n entries were already on their way and were left out.</source>
        <translation>
            <numerusform>%n 个条目已在传输中，已跳过。</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose a cache repo of your own</source>
        <translation>请选择您自己的缓存仓库</translation>
    </message>
    <message>
        <source>%1 is the public cache of AWS Neuron, read-only for users. Create or choose a cache repo of your own (Hub ▸ Create cache repo…) and push there.</source>
        <translation>%1 是 AWS Neuron 的公共缓存，对用户只读。请创建或选择您自己的缓存仓库（Hub ▸ 创建缓存仓库…），并推送到该仓库。</translation>
    </message>
    <message>
        <source>Push to the Hub</source>
        <translation>推送到 Hub</translation>
    </message>
    <message numerus="yes">
        <source>Upload %n successful entries from %1 to the Hub repo %2?

Only each entry&apos;s compiled files go (model.neff, model.done, the HLO module and its flags); failed, locked or unfinished entries, logs and locks never do. Entries already on the Hub are skipped.</source>
        <translation>
            <numerusform>要将 %1 中的 %n 个成功条目上传到 Hub 仓库 %2 吗？

仅上传每个条目的编译产物（model.neff、model.done、HLO 模块及其编译选项）；失败、已锁定或未完成的条目，以及日志和锁文件，都不会上传。Hub 上已有的条目将被跳过。</numerusform>
        </translation>
    </message>
    <message>
        <source>No remote hosts</source>
        <translation>没有远程主机</translation>
    </message>
    <message>
        <source>Copy to a remote host</source>
        <translation>复制到远程主机</translation>
    </message>
    <message numerus="yes">
        <source>Copy %n entries to the compile cache of:</source>
        <translation>
            <numerusform>将 %n 个条目复制到以下主机的编译缓存：</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Consolidate a checkpoint…</source>
        <translation>合并检查点(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Hub caches</source>
        <translation>Hub 缓存(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Jobs</source>
        <translation>任务(&amp;J)</translation>
    </message>
    <message>
        <source>&amp;Remote hosts</source>
        <translation>远程主机(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Transfers</source>
        <translation>传输(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Hub</source>
        <translation>Hub(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Log in…</source>
        <translation>登录(&amp;L)…</translation>
    </message>
    <message>
        <source>Log &amp;out</source>
        <translation>退出登录(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Add cache repo…</source>
        <translation>添加缓存仓库(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Create cache repo…</source>
        <translation>创建缓存仓库(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Use selected repo as cache repo</source>
        <translation>将所选仓库用作缓存仓库(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Areas</source>
        <translation>区域</translation>
    </message>
    <message>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <source>Cancel the scan</source>
        <translation>取消扫描</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts…</source>
        <translation>键盘快捷键(&amp;K)…</translation>
    </message>
    <message>
        <source>Everywhere</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>Add a host on the Remote hosts page (Ctrl+4) first, or list it in your ssh config; or open an S3 cache (File menu) to copy to it.</source>
        <translation>请先在“远程主机”页面（Ctrl+4）添加主机，或在 ssh 配置中列出它；也可以打开一个 S3 缓存（文件菜单）并复制到那里。</translation>
    </message>
    <message>
        <source>&amp;Open a run folder…</source>
        <translation>打开运行文件夹(&amp;O)…</translation>
    </message>
    <message>
        <source>Adopt a training run Ingot did not launch (trainer_state.json, TorchTitan logs, TensorBoard events)</source>
        <translation>导入一个并非由 Ingot 启动的训练运行（trainer_state.json、TorchTitan 日志、TensorBoard 事件）</translation>
    </message>
    <message>
        <source>Fleet</source>
        <translation>缓存总览</translation>
    </message>
    <message>
        <source>Every cache Ingot knows on one page: this machine&apos;s, the hosts&apos;, S3&apos;s and the Hub&apos;s (Ctrl+6)</source>
        <translation>在一个页面中查看 Ingot 已知的所有缓存：本机、各主机、S3 和 Hub 上的缓存 (Ctrl+6)</translation>
    </message>
    <message>
        <source>&amp;Fleet</source>
        <translation>缓存总览(&amp;F)</translation>
    </message>
    <message>
        <source>%1 (from the Fleet page: %2)</source>
        <translation>%1（来自缓存总览页：%2）</translation>
    </message>
</context>
<context>
    <name>ingot::Maintenance</name>
    <message>
        <source>LOCKED: a compile may be running on it; locked entries are never removed.</source>
        <translation>LOCKED：可能有编译正在使用它；已锁定的条目从不删除。</translation>
    </message>
    <message>
        <source>Delete failed entries</source>
        <translation>删除失败条目</translation>
    </message>
    <message>
        <source>Clear stale locks</source>
        <translation>清除过期锁</translation>
    </message>
    <message>
        <source>Remove other compiler versions</source>
        <translation>删除其他编译器版本</translation>
    </message>
    <message>
        <source>Prune by age and size</source>
        <translation>按时间和大小清理</translation>
    </message>
    <message>
        <source>Not a failed entry (%1).</source>
        <translation>不是失败条目（%1）。</translation>
    </message>
    <message>
        <source>Lock files: %1</source>
        <translation>锁文件：%1</translation>
    </message>
    <message>
        <source>neuronx-cc is running (process %1), so these locks may belong to a live compile. Wait for it to finish, then clear the locks.</source>
        <translation>neuronx-cc 正在运行（进程 %1），这些锁可能属于正在进行的编译。请等待其完成后再清除锁。</translation>
    </message>
    <message>
        <source>Not written by the compiler; Ingot leaves it for you to remove by hand.</source>
        <translation>并非由编译器写入；Ingot 不会处理，请手动删除。</translation>
    </message>
    <message>
        <source>Compiler version %1 is not kept.</source>
        <translation>编译器版本 %1 不在保留之列。</translation>
    </message>
    <message>
        <source>The version folder, once it is empty.</source>
        <translation>版本文件夹（清空后删除）。</translation>
    </message>
    <message numerus="yes">
        <source>Unused for %n days (TTL %1 days).</source>
        <translation>
            <numerusform>已 %n 天未使用（TTL 为 %1 天）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Least recently used while the cache is over %1.</source>
        <translation>缓存超出 %1，此条目最久未使用。</translation>
    </message>
    <message>
        <source>The cache stays over the %1 limit (%2 after pruning): the remaining entries were used within the last %3 days and are kept.</source>
        <translation>缓存仍超出 %1 的上限（清理后为 %2）：其余条目在最近 %3 天内用过，予以保留。</translation>
    </message>
    <message>
        <source>The cache stays over the %1 limit (%2 after pruning): only locked entries and unknown files remain.</source>
        <translation>缓存仍超出 %1 的上限（清理后为 %2）：剩下的只有已锁定的条目和未知文件。</translation>
    </message>
    <message>
        <source>neuronx-cc started running since the preview; nothing was changed.</source>
        <translation>预览之后 neuronx-cc 开始运行；未做任何更改。</translation>
    </message>
    <message numerus="yes">
        <source>Kept: the folder still holds %n entries.</source>
        <translation>
            <numerusform>已保留：该文件夹中仍有 %n 个条目。</numerusform>
        </translation>
    </message>
    <message>
        <source>Removed the empty folder.</source>
        <translation>已删除空文件夹。</translation>
    </message>
    <message>
        <source>No lock left: the compile finished since the preview.</source>
        <translation>已无锁：预览之后编译已完成。</translation>
    </message>
    <message numerus="yes">
        <source>Removed %n lock files.</source>
        <translation>
            <numerusform>已删除 %n 个锁文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>Skipped: the entry is locked now (a compile started).</source>
        <translation>已跳过：该条目现已锁定（有编译开始运行）。</translation>
    </message>
    <message>
        <source>Skipped: the entry was used since the preview.</source>
        <translation>已跳过：预览之后该条目被使用过。</translation>
    </message>
    <message>
        <source>Removed.</source>
        <translation>已删除。</translation>
    </message>
    <message>
        <source>%1 is no longer the folder that was previewed (it was replaced, or a link on its path now points elsewhere). Nothing was changed: look again and preview anew.</source>
        <translation>%1 已不是预览时的那个文件夹（它已被替换，或其路径上的某个链接现在指向了别处）。未做任何更改：请重新查看并再次预览。</translation>
    </message>
    <message>
        <source>A compile may hold its locks, and that cannot be seen from here.</source>
        <translation>某个编译可能持有它的锁，而从这里无法看出。</translation>
    </message>
    <message>
        <source>Its locks (%1) are younger than %2: a compile may hold them.</source>
        <translation>它的锁（%1）比 %2 新：某个编译可能持有它们。</translation>
    </message>
    <message>
        <source>Nothing can be cleared without an age: give one (ingot-cli cache clear-locks --older-than 2h), and locks older than it are taken as left by a compile that ended.</source>
        <translation>没有时长就无法清除任何锁：请给出一个时长（ingot-cli cache clear-locks --older-than 2h），早于它的锁将被视为已结束的编译所遗留。</translation>
    </message>
    <message>
        <source>The rule: whether a compile runs cannot be seen from here, so a lock older than %1 is taken as left by a compile that ended, and a younger one as held.</source>
        <translation>规则：从这里无法看出编译是否在运行，因此早于 %1 的锁被视为已结束的编译所遗留，较新的锁被视为仍被持有。</translation>
    </message>
    <message>
        <source>Only locks older than %1 are cleared.</source>
        <translation>只清除早于 %1 的锁。</translation>
    </message>
    <message>
        <source>Kept: its locks are younger than %1 now.</source>
        <translation>已保留：它的锁现在比 %1 新。</translation>
    </message>
    <message>
        <source>%1: removing it lets the next run compile this graph again.</source>
        <translation>%1：删除它后，下次运行会重新编译这个图。</translation>
    </message>
    <message>
        <source>Skipped: the entry is %1 now, no longer %2.</source>
        <translation>已跳过：该条目现在是 %1，不再是 %2。</translation>
    </message>
    <message>
        <source>Remove matching entries</source>
        <translation>删除匹配的条目</translation>
    </message>
    <message>
        <source>No filter: name what goes (e.g. size&gt;1GB, used&gt;30d, state=failed); removing every entry is not maintenance.</source>
        <translation>没有过滤条件：请指明要删除什么（例如 size&gt;1GB、used&gt;30d、state=failed）；删除所有条目不属于维护。</translation>
    </message>
    <message>
        <source>Matches %1.</source>
        <translation>匹配 %1。</translation>
    </message>
    <message>
        <source>Skipped: the entry no longer matches %1.</source>
        <translation>已跳过：该条目不再匹配 %1。</translation>
    </message>
    <message>
        <source>Apply a cache policy</source>
        <translation>应用缓存策略</translation>
    </message>
    <message>
        <source>Skipped: neuronx-cc started running since the preview; its locks stay.</source>
        <translation>已跳过：预览之后 neuronx-cc 开始运行；其锁予以保留。</translation>
    </message>
    <message>
        <source>Skipped: the entry vanished since the preview (removed by something else).</source>
        <translation>已跳过：该条目在预览后已消失（已被其他程序移除）。</translation>
    </message>
</context>
<context>
    <name>ingot::MaintenanceDialog</name>
    <message>
        <source>&lt;b&gt;Nothing to do.&lt;/b&gt; No entry matches this action.</source>
        <translation>&lt;b&gt;无需操作。&lt;/b&gt;没有条目符合此操作。</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Dry run:&lt;/b&gt; lock files in %n entries would be removed. The entries themselves stay.</source>
        <translation>
            <numerusform>&lt;b&gt;试运行：&lt;/b&gt;将删除 %n 个条目中的锁文件，条目本身保留。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Dry run:&lt;/b&gt; %n entries would be removed, freeing %1 (the cache goes from %2 to %3). Nothing has been changed yet.</source>
        <translation>
            <numerusform>&lt;b&gt;试运行：&lt;/b&gt;将删除 %n 个条目，释放 %1（缓存从 %2 减至 %3）。目前尚未做任何更改。</numerusform>
        </translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Kept</source>
        <translation>保留</translation>
    </message>
    <message numerus="yes">
        <source>Remove locks in %n entries</source>
        <translation>
            <numerusform>删除 %n 个条目中的锁</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n entries (%1)</source>
        <translation>
            <numerusform>删除 %n 个条目（%1）</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>These stay:</source>
        <translation>以下条目将保留：</translation>
    </message>
    <message>
        <source>Removing %1 (%2 of %3)</source>
        <translation>正在删除 %1（第 %2 个，共 %3 个）</translation>
    </message>
    <message>
        <source>Stopping after the current entry…</source>
        <translation>处理完当前条目后停止…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>未做任何更改。</translation>
    </message>
    <message>
        <source>%1 removed, %2 skipped, %3 failed; %4 freed on disk.</source>
        <translation>已删除 %1 个，跳过 %2 个，失败 %3 个；释放磁盘空间 %4。</translation>
    </message>
    <message>
        <source>Stopped before the end: the remaining entries were not touched.</source>
        <translation>已提前停止：其余条目未做改动。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Finished with problems.&lt;/b&gt; Each failed entry says why below.</source>
        <translation>&lt;b&gt;已完成，但存在问题。&lt;/b&gt;下方列出了每个失败条目的原因。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Finished.&lt;/b&gt;</source>
        <translation>&lt;b&gt;已完成。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Not reached</source>
        <translation>未执行</translation>
    </message>
    <message>
        <source>%1 — preview</source>
        <translation>%1 — 预览</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>无上限</translation>
    </message>
    <message>
        <source>Keep entries used within:</source>
        <translation>保留此期限内用过的条目：</translation>
    </message>
    <message>
        <source>Size limit:</source>
        <translation>大小上限：</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Dry run:&lt;/b&gt; %n entries would be removed, freeing %1 of the cache&apos;s %2. Nothing has been changed yet.</source>
        <translation>
            <numerusform>&lt;b&gt;试运行：&lt;/b&gt;将删除 %n 个条目，从缓存的 %2 中释放 %1。尚未做任何更改。</numerusform>
        </translation>
    </message>
    <message>
        <source>no age</source>
        <translation>不限时长</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>hours</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>days</source>
        <translation>天</translation>
    </message>
    <message>
        <source>Clear locks older than:</source>
        <translation>清除早于此时长的锁：</translation>
    </message>
    <message>
        <source>Lock objects older than %1 are removed; how the Neuron runtime marks a live compile on S3 is not public, so a younger lock is kept.</source>
        <translation>早于 %1 的锁对象会被删除；Neuron 运行时如何标记 S3 上正在进行的编译并未公开，因此较新的锁会被保留。</translation>
    </message>
    <message>
        <source>Set an age: lock objects older than it are removed; how the Neuron runtime marks a live compile on S3 is not public, so a younger lock is kept. With no age nothing is removed.</source>
        <translation>请设置一个时长：早于它的锁对象会被删除；Neuron 运行时如何标记 S3 上正在进行的编译并未公开，因此较新的锁会被保留。不设时长则不删除任何内容。</translation>
    </message>
    <message>
        <source>Planning…</source>
        <translation>正在规划…</translation>
    </message>
</context>
<context>
    <name>ingot::MetricChart</name>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>吞吐量（tokens/s）</translation>
    </message>
    <message>
        <source>No values yet</source>
        <translation>暂无数据</translation>
    </message>
    <message>
        <source>this run</source>
        <translation>本次运行</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>time (h)</source>
        <translation>时间（小时）</translation>
    </message>
    <message>
        <source>time (min)</source>
        <translation>时间（分钟）</translation>
    </message>
    <message>
        <source>time (s)</source>
        <translation>时间（秒）</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1 chart</source>
        <translation>%1 图表</translation>
    </message>
    <message>
        <source>%1: no values yet.</source>
        <translation>%1：还没有数据。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 → %3 over %Ln step(s), lowest %4, highest %5.</source>
        <translation>
            <numerusform>%1：%Ln 步内从 %2 变为 %3，最低 %4，最高 %5。</numerusform>
        </translation>
    </message>
    <message>
        <source>h</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>&amp;Save as PNG/SVG…</source>
        <translation>另存为 PNG/SVG(&amp;S)…</translation>
    </message>
    <message>
        <source>%1: a chart is saved as .png or .svg</source>
        <translation>%1：图表只能保存为 .png 或 .svg</translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 cannot be written: the image could not be encoded</source>
        <translation>无法写入 %1：图像无法编码</translation>
    </message>
    <message>
        <source>Save the chart</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 绘图 (*.svg)</translation>
    </message>
</context>
<context>
    <name>ingot::ModelInfo</name>
    <message>
        <source>%1 has no readable config.json</source>
        <translation>%1 中没有可读取的 config.json</translation>
    </message>
    <message>
        <source>config.json is larger than 1 MiB</source>
        <translation>config.json 大于 1 MiB</translation>
    </message>
    <message>
        <source>config.json has no valid %1</source>
        <translation>config.json 中没有有效的 %1</translation>
    </message>
    <message>
        <source>%1 (built in)</source>
        <translation>%1（内置）</translation>
    </message>
    <message>
        <source>unknown built-in config %1 (built in: %2)</source>
        <translation>未知的内置配置 %1（内置配置：%2）</translation>
    </message>
    <message>
        <source>config.json is not a JSON object</source>
        <translation>config.json 不是 JSON 对象</translation>
    </message>
    <message>
        <source>config.json: hidden_size %1 and %2 attention heads / %3 key-value heads do not fit together</source>
        <translation>config.json：hidden_size %1 与 %2 个注意力头 / %3 个键值头不匹配</translation>
    </message>
    <message>
        <source>a model folder</source>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <source>no model folder chosen</source>
        <translation>未选择模型文件夹</translation>
    </message>
</context>
<context>
    <name>ingot::ModuleDetailsPane</name>
    <message>
        <source>(no flags: the compiler defaults)</source>
        <translation>（无选项：使用编译器默认值）</translation>
    </message>
    <message>
        <source>(compile_flags.json is not a JSON list; raw text follows)
</source>
        <translation>（compile_flags.json 不是 JSON 列表；以下为原始文本）
</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Compile flags</source>
        <translation>编译选项</translation>
    </message>
    <message>
        <source>Failure log (model.log, last lines)</source>
        <translation>失败日志（model.log 最后几行）</translation>
    </message>
    <message>
        <source>Copy the full path (Ctrl+Shift+C)</source>
        <translation>复制完整路径（Ctrl+Shift+C）</translation>
    </message>
    <message>
        <source>Select an entry to see its files, flags and log.</source>
        <translation>选择一个条目以查看其文件、编译选项和日志。</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %n file(s), last used %2</source>
        <translation>
            <numerusform>%1，共 %n 个文件，上次使用：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>Compile flags (%1)</source>
        <translation>编译选项（%1）</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %n file(s), last used %2; %3 linked from elsewhere</source>
        <translation>
            <numerusform>%1，共 %n 个文件，上次使用 %2；其中 %3 链接自其他位置</numerusform>
        </translation>
    </message>
    <message>
        <source>HLO graph (model.hlo_module.pb)</source>
        <translation>HLO 计算图（model.hlo_module.pb）</translation>
    </message>
    <message>
        <source>Why would a job compile it?</source>
        <translation>作业为什么会编译它？</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>解释</translation>
    </message>
    <message>
        <source>Looks in this cache and every cache Ingot knows (the folders added here, this machine&apos;s cache, the Hub cache repos) for this entry, its graph with other flags or another compiler</source>
        <translation>在此缓存以及 Ingot 知道的所有缓存（此处添加的文件夹、本机缓存、Hub 缓存仓库）中查找此条目、使用其他标志或其他编译器的同一计算图</translation>
    </message>
    <message>
        <source>Press Explain to see whether a job looking for this entry finds it, and if not, why.</source>
        <translation>点击“解释”，查看查找此条目的作业能否找到它，若不能，原因是什么。</translation>
    </message>
    <message>
        <source>The HLO cannot be read: %1</source>
        <translation>无法读取 HLO：%1</translation>
    </message>
    <message>
        <source>Looking in %1 and the other caches Ingot knows…</source>
        <translation>正在 %1 及 Ingot 知道的其他缓存中查找…</translation>
    </message>
    <message>
        <source>Cannot explain: %1</source>
        <translation>无法解释：%1</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>处理方法：%1</translation>
    </message>
    <message>
        <source>Delete this failed entry…</source>
        <translation>删除这个失败的条目…</translation>
    </message>
    <message>
        <source>Clear stale locks…</source>
        <translation>清除陈旧的锁…</translation>
    </message>
    <message>
        <source>Bring it here from %1</source>
        <translation>从 %1 取到这里</translation>
    </message>
</context>
<context>
    <name>ingot::ModuleFilesModel</name>
    <message>
        <source>broken link</source>
        <translation>失效链接</translation>
    </message>
    <message>
        <source>link into the Hugging Face hub cache (not counted)</source>
        <translation>指向 Hugging Face Hub 缓存的链接（不计入）</translation>
    </message>
    <message>
        <source>link outside the cache root (not counted, never followed)</source>
        <translation>指向缓存根目录之外的链接（不计入，从不跟随）</translation>
    </message>
    <message>
        <source>link inside the cache (not counted twice)</source>
        <translation>指向缓存内部的链接（不重复计入）</translation>
    </message>
    <message>
        <source>sub-folder, not scanned</source>
        <translation>子文件夹，未扫描</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>not written by the compiler</source>
        <translation>并非由编译器写入</translation>
    </message>
    <message>
        <source>sparse: %1 on disk</source>
        <translation>稀疏文件：实际占用 %1</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
</context>
<context>
    <name>ingot::NeffCache</name>
    <message>
        <source>TORCH_NEURONX_NEFF_CACHE_DIR is set to %1.</source>
        <translation>TORCH_NEURONX_NEFF_CACHE_DIR 已设置为 %1。</translation>
    </message>
    <message>
        <source>TORCH_NEURONX_NEFF_CACHE_DIR is not set, so the folder the Neuron documentation names, %1, is used.</source>
        <translation>TORCH_NEURONX_NEFF_CACHE_DIR 未设置，因此使用 Neuron 文档指定的文件夹 %1。</translation>
    </message>
</context>
<context>
    <name>ingot::NeuronCoresView</name>
    <message>
        <source>NeuronCores are read while the job runs.</source>
        <translation>作业运行时读取 NeuronCore。</translation>
    </message>
    <message numerus="yes">
        <source>%n Neuron device(s), %1 NeuronCores</source>
        <translation>
            <numerusform>%n 个 Neuron 设备，%1 个 NeuronCore</numerusform>
        </translation>
    </message>
    <message>
        <source>device %1: %2</source>
        <translation>设备 %1：%2</translation>
    </message>
    <message>
        <source>no Neuron runtime of this job yet (NEURON_PROCESS_TAG=its id)</source>
        <translation>尚无此作业的 Neuron 运行时（NEURON_PROCESS_TAG=其 ID）</translation>
    </message>
    <message numerus="yes">
        <source>%n core(s) in use, %1 % on average</source>
        <translation>
            <numerusform>%n 个核心在使用，平均 %1 %</numerusform>
        </translation>
    </message>
    <message>
        <source>device memory %1</source>
        <translation>设备内存 %1</translation>
    </message>
    <message>
        <source>host memory %1</source>
        <translation>主机内存 %1</translation>
    </message>
    <message>
        <source>%1 executions in the last period</source>
        <translation>上一周期执行 %1 次</translation>
    </message>
    <message>
        <source>execution errors: %1</source>
        <translation>执行错误：%1</translation>
    </message>
    <message>
        <source>ECC events: %1 corrected, %2 uncorrected</source>
        <translation>ECC 事件：已纠正 %1 次，未纠正 %2 次</translation>
    </message>
</context>
<context>
    <name>ingot::NeuronHeatStrip</name>
    <message>
        <source>NC %1</source>
        <translation>NC %1</translation>
    </message>
    <message>
        <source>0–100 % utilization · one column per sample, newest on the right</source>
        <translation>0–100 % 利用率 · 每个样本一列，最新的在右侧</translation>
    </message>
</context>
<context>
    <name>ingot::NeuronMonitor</name>
    <message>
        <source>a neuron-monitor report over %1 MiB</source>
        <translation>neuron-monitor 报告超过 %1 MiB</translation>
    </message>
    <message>
        <source>not a neuron-monitor report (a JSON object per line)</source>
        <translation>不是 neuron-monitor 报告（每行一个 JSON 对象）</translation>
    </message>
    <message>
        <source>not neuron-ls JSON output (a list of devices)</source>
        <translation>不是 neuron-ls 的 JSON 输出（设备列表）</translation>
    </message>
    <message>
        <source>neuron-monitor is not installed where this job runs (%1): the Neuron SDK&apos;s aws-neuronx-tools provide it.</source>
        <translation>作业运行处（%1）未安装 neuron-monitor：它由 Neuron SDK 的 aws-neuronx-tools 提供。</translation>
    </message>
    <message>
        <source>neuron-monitor is not installed on the nodes of Slurm job %1: the Neuron SDK&apos;s aws-neuronx-tools provide it.</source>
        <translation>Slurm 作业 %1 的节点上未安装 neuron-monitor：它由 Neuron SDK 的 aws-neuronx-tools 提供。</translation>
    </message>
    <message>
        <source>neuron-monitor could not be run (status %1): %2</source>
        <translation>无法运行 neuron-monitor（状态 %1）：%2</translation>
    </message>
</context>
<context>
    <name>ingot::Notifier</name>
    <message>
        <source>A job finished</source>
        <translation>作业已完成</translation>
    </message>
    <message>
        <source>A job failed</source>
        <translation>作业失败</translation>
    </message>
    <message>
        <source>A job stalled (its step stopped moving)</source>
        <translation>作业停滞（步数不再前进）</translation>
    </message>
    <message>
        <source>A queued job started running</source>
        <translation>排队的作业开始运行</translation>
    </message>
    <message>
        <source>A transfer ended</source>
        <translation>传输结束</translation>
    </message>
    <message>
        <source>A consolidation ended</source>
        <translation>合并结束</translation>
    </message>
</context>
<context>
    <name>ingot::OpenRunFolder</name>
    <message>
        <source>Open a run folder</source>
        <translation>打开运行文件夹</translation>
    </message>
    <message>
        <source>%1 could not be opened as a run.</source>
        <translation>无法将 %1 作为运行打开。</translation>
    </message>
</context>
<context>
    <name>ingot::PasswordDialog</name>
    <message>
        <source>ssh asks</source>
        <translation>ssh 询问</translation>
    </message>
    <message>
        <source>ssh asks — %1</source>
        <translation>ssh 询问 — %1</translation>
    </message>
    <message>
        <source>Ingot hands this to ssh and does not store it. Load your key into ssh-agent to be asked less often.</source>
        <translation>Ingot 只会将其转交给 ssh，不会保存。将密钥加载到 ssh-agent 可减少询问次数。</translation>
    </message>
</context>
<context>
    <name>ingot::PlanModel</name>
    <message>
        <source>%1–%2</source>
        <comment>a range of ranks</comment>
        <translation>%1–%2</translation>
    </message>
    <message>
        <source>%1 (pp %2)</source>
        <comment>tp ranks, then the pipeline stage</comment>
        <translation>%1（pp %2）</translation>
    </message>
    <message>
        <source>From %1 in the shards</source>
        <translation>来自分片中的 %1</translation>
    </message>
    <message>
        <source>Output tensor</source>
        <translation>输出张量</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>Dtype</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>合并方式</translation>
    </message>
    <message>
        <source>tp ranks</source>
        <translation>tp rank</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Written to</source>
        <translation>写入位置</translation>
    </message>
</context>
<context>
    <name>ingot::PolicyDialog</name>
    <message>
        <source>Remove &amp;failed entries (the next run compiles them again)</source>
        <translation>移除失败的条目（下次运行时会重新编译）(&amp;F)</translation>
    </message>
    <message>
        <source>Clear stale &amp;locks (never while neuronx-cc runs there)</source>
        <translation>清除过期锁（neuronx-cc 正在该处运行时绝不清除）(&amp;L)</translation>
    </message>
    <message>
        <source>New cache policy</source>
        <translation>新建缓存策略</translation>
    </message>
    <message>
        <source>Cache policy %1</source>
        <translation>缓存策略 %1</translation>
    </message>
    <message>
        <source>team-daily</source>
        <translation>team-daily</translation>
    </message>
    <message>
        <source>no limit (e.g. 200GB, 500GiB)</source>
        <translation>无限制（例如 200GB、500GiB）</translation>
    </message>
    <message>
        <source>every version</source>
        <translation>所有版本</translation>
    </message>
    <message>
        <source>no age rule</source>
        <translation>无时间规则</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>where compiles cannot be seen (S3): e.g. 2h, 1d</source>
        <translation>用于无法看到编译进程的位置 (S3)：例如 2h、1d</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Maximum size:</source>
        <translation>最大大小(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Keep the newest compilers:</source>
        <translation>保留最新的编译器版本(&amp;K)：</translation>
    </message>
    <message>
        <source>Remove entries &amp;unused for over:</source>
        <translation>移除超过以下时间未使用的条目(&amp;U)：</translation>
    </message>
    <message>
        <source>Lock &amp;age:</source>
        <translation>锁的存在时长(&amp;A)：</translation>
    </message>
    <message>
        <source>A name: letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos;, 1 to 64 of them.</source>
        <translation>名称：由字母、数字、&apos;-&apos;、&apos;_&apos; 和 &apos;.&apos; 组成，长度为 1 到 64 个字符。</translation>
    </message>
    <message>
        <source>The maximum size is a size such as 100GB, 500M or 20GiB, not &quot;%1&quot;.</source>
        <translation>最大大小应为类似 100GB、500M 或 20GiB 的大小，而不是 &quot;%1&quot;。</translation>
    </message>
    <message>
        <source>The lock age is an age such as 90m, 2h or 7d, not &quot;%1&quot;.</source>
        <translation>锁的存在时长应为类似 90m、2h 或 7d 的时长，而不是 &quot;%1&quot;。</translation>
    </message>
    <message>
        <source>A policy removes something: give a maximum size, the compilers to keep, an age, failed entries or stale locks.</source>
        <translation>策略必须移除某些内容：请指定最大大小、要保留的编译器版本、时间、失败的条目或过期锁。</translation>
    </message>
    <message>
        <source>Removes: %1.</source>
        <translation>移除：%1。</translation>
    </message>
</context>
<context>
    <name>ingot::Precompile</name>
    <message>
        <source>not a neuron_parallel_compile results file (no compilation_report)</source>
        <translation>不是 neuron_parallel_compile 结果文件（没有 compilation_report）</translation>
    </message>
    <message>
        <source>Precompile: the trial run failed (the training script&apos;s error is in the tool&apos;s log).</source>
        <translation>预编译：试运行失败（训练脚本的错误在工具的日志中）。</translation>
    </message>
    <message numerus="yes">
        <source>%n graph(s) found: %1 done, %2 compiling, %3 failed, %4 remaining</source>
        <translation>
            <numerusform>已找到 %n 个计算图：%1 个完成，%2 个编译中，%3 个失败，%4 个待处理</numerusform>
        </translation>
    </message>
    <message>
        <source>Precompile finished: %1.</source>
        <translation>预编译完成：%1。</translation>
    </message>
    <message>
        <source>Precompile failed (status %1): %2. The training was not started.</source>
        <translation>预编译失败（状态 %1）：%2。训练未启动。</translation>
    </message>
    <message>
        <source>Precompile: the trial run traces the graphs…</source>
        <translation>预编译：试运行正在追踪计算图…</translation>
    </message>
    <message>
        <source>Precompile running: %1.</source>
        <translation>预编译进行中：%1。</translation>
    </message>
</context>
<context>
    <name>ingot::PriorGraphs</name>
    <message numerus="yes">
        <source>The last run with these settings (%1) used %n graph(s): %2 compiled in %3 now, %4 to compile again.</source>
        <translation>
            <numerusform>使用这些设置的上一次运行（%1）用到 %n 个计算图：现在 %3 中已编译 %2 个，%4 个需要重新编译。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n blocked (FAILED or LOCKED): %1</source>
        <translation>
            <numerusform>%n 个被阻塞（FAILED 或 LOCKED）：%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::ProcessRun</name>
    <message>
        <source>Cannot run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <source>%1 did not end within %2 s.</source>
        <translation>%1 未在 %2 秒内结束。</translation>
    </message>
    <message>
        <source>%1 was stopped.</source>
        <translation>%1 已被停止。</translation>
    </message>
    <message>
        <source>%1 printed more than %2 bytes.</source>
        <translation>%1 输出超过了 %2 字节。</translation>
    </message>
    <message>
        <source>%1 was killed.</source>
        <translation>%1 被终止。</translation>
    </message>
</context>
<context>
    <name>ingot::RemoteHostSession</name>
    <message>
        <source>not a valid host name</source>
        <translation>主机名无效</translation>
    </message>
    <message>
        <source>ssh is not installed</source>
        <translation>未安装 ssh</translation>
    </message>
    <message>
        <source>host key not confirmed</source>
        <translation>主机密钥未确认</translation>
    </message>
    <message>
        <source>host key CHANGED, refused</source>
        <translation>主机密钥已更改，已拒绝</translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation>身份验证失败</translation>
    </message>
    <message>
        <source>connection refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <source>no answer in time</source>
        <translation>响应超时</translation>
    </message>
    <message>
        <source>host name does not resolve</source>
        <translation>主机名无法解析</translation>
    </message>
    <message>
        <source>host unreachable</source>
        <translation>主机不可达</translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation>连接已断开</translation>
    </message>
    <message>
        <source>too much output</source>
        <translation>输出过多</translation>
    </message>
    <message>
        <source>ssh failed</source>
        <translation>ssh 失败</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Connected to %1.</source>
        <translation>已连接到 %1。</translation>
    </message>
    <message>
        <source>The host key of %1 changed: Ingot refused to connect.</source>
        <translation>%1 的主机密钥已更改：Ingot 拒绝连接。</translation>
    </message>
    <message>
        <source>Could not connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message>
        <source>Asking %1 for its host key…</source>
        <translation>正在向 %1 获取主机密钥…</translation>
    </message>
    <message>
        <source>The host did not present a key.</source>
        <translation>该主机未提供密钥。</translation>
    </message>
    <message>
        <source>Could not read the host key of %1.</source>
        <translation>无法读取 %1 的主机密钥。</translation>
    </message>
    <message>
        <source>Check the host key of %1.</source>
        <translation>请核对 %1 的主机密钥。</translation>
    </message>
    <message>
        <source>You did not trust the key %1 presented; nothing was recorded. Connect again to see it again.</source>
        <translation>您未信任 %1 提供的密钥，未记录任何内容。重新连接可再次查看该密钥。</translation>
    </message>
    <message>
        <source>Not connected to %1: its host key was not trusted.</source>
        <translation>未连接到 %1：其主机密钥未被信任。</translation>
    </message>
    <message>
        <source>host key not recorded</source>
        <translation>主机密钥未记录</translation>
    </message>
    <message numerus="yes">
        <source>The connection to %1 was lost; retrying in %n s.</source>
        <translation>
            <numerusform>与 %1 的连接已断开；%n 秒后重试。</numerusform>
        </translation>
    </message>
    <message>
        <source>The master connection to %1 is gone (the network dropped, the machine slept, or the server restarted). Ingot reconnects by itself; Retry now tries at once.</source>
        <translation>与 %1 的主连接已断开（网络中断、机器休眠或服务器重启）。Ingot 会自动重连；点击“立即重试”可马上尝试。</translation>
    </message>
    <message>
        <source>Disconnecting from %1…</source>
        <translation>正在断开与 %1 的连接…</translation>
    </message>
    <message>
        <source>Disconnected from %1.</source>
        <translation>已断开与 %1 的连接。</translation>
    </message>
    <message>
        <source>Asking %1 where its compile cache is…</source>
        <translation>正在询问 %1 的编译缓存位置…</translation>
    </message>
    <message>
        <source>Could not ask %1 where its compile cache is: %2</source>
        <translation>无法询问 %1 的编译缓存位置：%2</translation>
    </message>
    <message>
        <source>Looking for %1 on %2…</source>
        <translation>正在 %2 上查找 %1…</translation>
    </message>
    <message>
        <source>Could not look for %1 on %2: %3</source>
        <translation>无法在 %2 上查找 %1：%3</translation>
    </message>
    <message>
        <source>There is no folder %1 on %2. Check the path, or open the compile cache the Neuron tools there use.</source>
        <translation>%2 上没有文件夹 %1。请检查路径，或打开该主机上 Neuron 工具所用的编译缓存。</translation>
    </message>
    <message>
        <source>%1 is not an absolute path: start it with / (or ~/ for the home folder on %2).</source>
        <translation>%1 不是绝对路径：请以 / 开头（或以 ~/ 表示 %2 上的主目录）。</translation>
    </message>
    <message>
        <source>%1 on %2 is not a folder.</source>
        <translation>%2 上的 %1 不是文件夹。</translation>
    </message>
    <message>
        <source>%1 on %2 cannot be entered: permission denied for the user Ingot logs in as.</source>
        <translation>无法进入 %2 上的 %1：Ingot 登录所用的用户没有权限。</translation>
    </message>
    <message>
        <source>Could not check %1 on %2 (exit status %3).</source>
        <translation>无法检查 %2 上的 %1（退出状态 %3）。</translation>
    </message>
</context>
<context>
    <name>ingot::RemoteHostsModel</name>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>连接中…</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message numerus="yes">
        <source>connection lost, retrying in %n s</source>
        <translation>
            <numerusform>连接已断开，%n 秒后重试</numerusform>
        </translation>
    </message>
    <message>
        <source>connection lost, retrying now…</source>
        <translation>连接已断开，正在重试…</translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation>连接已断开</translation>
    </message>
    <message>
        <source>ssh config</source>
        <translation>ssh config</translation>
    </message>
    <message>
        <source>added in Ingot</source>
        <translation>在 Ingot 中添加</translation>
    </message>
    <message>
        <source>a Host of your ssh config</source>
        <translation>你的 ssh config 中的 Host</translation>
    </message>
    <message>
        <source>%1 (%2): %3</source>
        <translation>%1（%2）：%3</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>ingot::RemoteHostsPage</name>
    <message>
        <source>&amp;Add host…</source>
        <translation>添加主机(&amp;A)…</translation>
    </message>
    <message>
        <source>Add a host by name: an alias of your ssh config, host, user@host or user@host:port</source>
        <translation>按名称添加主机：ssh 配置中的别名、host、user@host 或 user@host:port</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <source>Forget a host added in Ingot (hosts of your ssh config are edited there)</source>
        <translation>移除在 Ingot 中添加的主机（ssh 配置中的主机请在配置文件中编辑）</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>Open the master connection to this host (ssh with your config, keys and agent)</source>
        <translation>打开到此主机的主连接（ssh 使用您的配置、密钥和 agent）</translation>
    </message>
    <message>
        <source>&amp;Disconnect</source>
        <translation>断开连接(&amp;D)</translation>
    </message>
    <message>
        <source>End the master connection (and stop retrying)</source>
        <translation>关闭主连接（并停止重试）</translation>
    </message>
    <message>
        <source>Open compile &amp;cache</source>
        <translation>打开编译缓存(&amp;C)</translation>
    </message>
    <message>
        <source>Ask the host where its Neuron tools keep the compile cache (NEURON_CC_FLAGS --cache_dir, NEURON_COMPILE_CACHE_URL, else /var/tmp/neuron-compile-cache) and show it</source>
        <translation>询问该主机的 Neuron 工具将编译缓存放在何处（NEURON_CC_FLAGS --cache_dir、NEURON_COMPILE_CACHE_URL，否则为 /var/tmp/neuron-compile-cache），并显示该缓存</translation>
    </message>
    <message>
        <source>Open &amp;folder on host…</source>
        <translation>打开主机上的文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Show a compile cache folder of your choice on this host</source>
        <translation>显示此主机上您指定的编译缓存文件夹</translation>
    </message>
    <message>
        <source>Re&amp;load hosts</source>
        <translation>重新加载主机(&amp;L)</translation>
    </message>
    <message>
        <source>Read the ssh config again</source>
        <translation>重新读取 ssh 配置</translation>
    </message>
    <message>
        <source>What ssh resolves (ssh -G)</source>
        <translation>ssh 解析结果（ssh -G）</translation>
    </message>
    <message>
        <source>Host name:</source>
        <translation>主机名：</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <source>Identity files:</source>
        <translation>身份文件：</translation>
    </message>
    <message>
        <source>Proxy jump:</source>
        <translation>跳板主机：</translation>
    </message>
    <message>
        <source>Known hosts file:</source>
        <translation>known_hosts 文件：</translation>
    </message>
    <message>
        <source>Compile cache on this host</source>
        <translation>此主机上的编译缓存</translation>
    </message>
    <message>
        <source>Retry &amp;now</source>
        <translation>立即重试(&amp;N)</translation>
    </message>
    <message>
        <source>Hosts of %1 (and the files it includes) and hosts you added. ssh runs with your config, keys and agent.</source>
        <translation>%1（及其包含的文件）中的主机，以及您添加的主机。ssh 运行时使用您的配置、密钥和 agent。</translation>
    </message>
    <message>
        <source>Added %1.</source>
        <translation>已添加 %1。</translation>
    </message>
    <message>
        <source>Add a remote host</source>
        <translation>添加远程主机</translation>
    </message>
    <message>
        <source>trn1-dev, ubuntu@10.0.0.5 or ubuntu@trn1.example.com:2222</source>
        <translation>trn1-dev、ubuntu@10.0.0.5 或 ubuntu@trn1.example.com:2222</translation>
    </message>
    <message>
        <source>An alias of your ssh config, a host name, user@host or user@host:port. Ingot connects with ssh, so your config, keys, agent and ProxyJump apply.</source>
        <translation>ssh 配置中的别名、主机名、user@host 或 user@host:port。Ingot 通过 ssh 连接，因此您的配置、密钥、agent 和 ProxyJump 都会生效。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>Removed %1 from the list; its master connection, if any, ends by itself.</source>
        <translation>已从列表中移除 %1；如有主连接，它会自行结束。</translation>
    </message>
    <message>
        <source>No host selected</source>
        <translation>未选择主机</translation>
    </message>
    <message>
        <source>Add a host, or add Host entries to your ssh config.</source>
        <translation>请添加主机，或在 ssh 配置中添加 Host 条目。</translation>
    </message>
    <message>
        <source>Not looked up yet. &quot;Open compile cache&quot; asks the host where its Neuron tools keep the cache.</source>
        <translation>尚未查找。“打开编译缓存”会询问该主机的 Neuron 工具将缓存放在何处。</translation>
    </message>
    <message>
        <source>What ssh resolves (ssh -G %1)</source>
        <translation>ssh 解析结果（ssh -G %1）</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>ssh -G failed.</source>
        <translation>ssh -G 失败。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>
(keys recorded as %1)</source>
        <translation>
（密钥记录为 %1）</translation>
    </message>
    <message>
        <source>%1

Cache: %2</source>
        <translation>%1

缓存：%2</translation>
    </message>
    <message>
        <source>Opening %1:%2…</source>
        <translation>正在打开 %1:%2…</translation>
    </message>
    <message>
        <source>Open a folder on %1</source>
        <translation>打开 %1 上的文件夹</translation>
    </message>
    <message>
        <source>A compile cache folder on %1 (an absolute path, or ~/…):</source>
        <translation>%1 上的编译缓存文件夹（绝对路径，或 ~/…）：</translation>
    </message>
    <message>
        <source>A folder you chose on %1.</source>
        <translation>您在 %1 上选择的文件夹。</translation>
    </message>
    <message>
        <source>Check &amp;Slurm</source>
        <translation>检查 &amp;Slurm</translation>
    </message>
    <message>
        <source>Ask the host whether it is a Slurm login node (sinfo, sbatch) and what its cluster holds</source>
        <translation>询问该主机是否为 Slurm 登录节点（sinfo、sbatch）以及其集群的情况</translation>
    </message>
    <message>
        <source>Slurm cluster</source>
        <translation>Slurm 集群</translation>
    </message>
    <message>
        <source>Asked once the host is connected.</source>
        <translation>主机连接后会自动询问。</translation>
    </message>
    <message>
        <source>Asking whether %1 runs Slurm…</source>
        <translation>正在询问 %1 是否运行 Slurm…</translation>
    </message>
    <message>
        <source>Slurm cluster of this machine</source>
        <translation>本机的 Slurm 集群</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Ask this machine&apos;s Slurm clients (sinfo, scontrol, squeue) again</source>
        <translation>再次询问本机的 Slurm 客户端（sinfo、scontrol、squeue）</translation>
    </message>
    <message>
        <source>%1&apos;s runtime uses this S3 cache. Ingot reads it on %1 with %1&apos;s own AWS CLI and keys; no key leaves the host. File &gt; Open an S3 cache reads it from here with this machine&apos;s keys instead.</source>
        <translation>%1 的运行时使用此 S3 缓存。Ingot 在 %1 上用 %1 自己的 AWS CLI 和密钥读取它；没有任何密钥离开该主机。也可以通过“文件 &gt; 打开 S3 缓存”在本机用本机的密钥读取。</translation>
    </message>
</context>
<context>
    <name>ingot::RemoteJobIndex</name>
    <message>
        <source>Not a remote job: %1</source>
        <translation>不是远程任务：%1</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <source>%1 is not a remote job&apos;s record.</source>
        <translation>%1 不是远程任务的记录。</translation>
    </message>
</context>
<context>
    <name>ingot::RemoteShell</name>
    <message>
        <source>the command for %1 is too long (%2 bytes)</source>
        <translation>发往 %1 的命令过长（%2 字节）</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>more than %1 bytes of output</source>
        <translation>输出超过 %1 字节</translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation>%1 秒内无响应</translation>
    </message>
</context>
<context>
    <name>ingot::Reshard</name>
    <message>
        <source>%1 cannot be read as a small JSON file.</source>
        <translation>无法将 %1 作为小型 JSON 文件读取。</translation>
    </message>
    <message>
        <source>%1 is not a JSON object.</source>
        <translation>%1 不是 JSON 对象。</translation>
    </message>
    <message>
        <source>No config.json in %1: the model&apos;s heads and layers decide how it splits.</source>
        <translation>%1 中没有 config.json：模型的注意力头数和层数决定其切分方式。</translation>
    </message>
    <message>
        <source>config.json does not give num_hidden_layers and num_attention_heads.</source>
        <translation>config.json 未给出 num_hidden_layers 和 num_attention_heads。</translation>
    </message>
    <message>
        <source>The model&apos;s %1 attention heads and %2 key/value heads do not split over %3 tensor-parallel ranks (each rank holds whole heads).</source>
        <translation>模型的 %1 个注意力头和 %2 个键/值头无法分到 %3 个张量并行 rank 上（每个 rank 持有完整的头）。</translation>
    </message>
    <message>
        <source>The model has %1 layers, fewer than %2 pipeline stages.</source>
        <translation>模型有 %1 层，少于 %2 个流水线阶段。</translation>
    </message>
    <message>
        <source>lm_head.weight is left out: the model ties it to the embedding, which the backend saves once.</source>
        <translation>已略去 lm_head.weight：模型将其与嵌入层绑定，后端只保存一次。</translation>
    </message>
    <message>
        <source>%1 is not a parameter of the bundled backend&apos;s Llama model, which re-sharding writes checkpoints for.</source>
        <translation>%1 不是内置后端 Llama 模型的参数，而重新分片只为该模型写出检查点。</translation>
    </message>
    <message>
        <source>%1 %2 does not split into %3 equal parts on dim %4.</source>
        <translation>%1 %2 无法在第 %4 维上均分为 %3 份。</translation>
    </message>
    <message>
        <source>%1 is missing: the backend&apos;s model needs it.</source>
        <translation>缺少 %1：后端的模型需要它。</translation>
    </message>
    <message>
        <source>%1 is not optimizer state the bundled backend wrote.</source>
        <translation>%1 不是内置后端写出的优化器状态。</translation>
    </message>
    <message>
        <source>The optimizer state files disagree on the step (%1 and %2).</source>
        <translation>优化器状态文件的步数不一致（%1 与 %2）。</translation>
    </message>
    <message>
        <source>%1 holds %2 twice.</source>
        <translation>%1 中 %2 出现了两次。</translation>
    </message>
    <message>
        <source>%1 holds no optimizer state %2.</source>
        <translation>%1 中没有优化器状态 %2。</translation>
    </message>
    <message>
        <source>Weights only: the source holds no optimizer state Ingot can carry over, so a run resumed from the output starts AdamW afresh.</source>
        <translation>仅权重：源中没有 Ingot 可以迁移的优化器状态，因此从输出恢复的运行将重新开始 AdamW。</translation>
    </message>
    <message>
        <source>Weights only, as asked: a run resumed from the output starts AdamW afresh.</source>
        <translation>按要求仅写出权重：从输出恢复的运行将重新开始 AdamW。</translation>
    </message>
    <message>
        <source>Only some rank folders hold optimizer state: the checkpoint is incomplete (or re-shard with weights only).</source>
        <translation>只有部分 rank 文件夹含有优化器状态：检查点不完整（或仅按权重重新分片）。</translation>
    </message>
    <message>
        <source>Weights only: the checkpoint holds no optimizer state by name (saved by an earlier version), so a run resumed from the output starts AdamW afresh.</source>
        <translation>仅权重：检查点中没有按名称保存的优化器状态（由早期版本保存），因此从输出恢复的运行将重新开始 AdamW。</translation>
    </message>
    <message>
        <source>%1: optimizer state of a %2 tensor cannot be carried over.</source>
        <translation>%1：无法迁移%2张量的优化器状态。</translation>
    </message>
    <message>
        <source>The optimizer state %1 is %2 %3, not shaped like its weight %4.</source>
        <translation>优化器状态 %1 为 %2 %3，与其权重 %4 的形状不同。</translation>
    </message>
    <message>
        <source>The tensor and pipeline parallel sizes must be at least 1 and together at most %1 ranks.</source>
        <translation>张量并行和流水线并行大小必须至少为 1，且合计最多 %1 个 rank。</translation>
    </message>
    <message>
        <source>--kv-size-multiplier %1: the bundled backend splits whole key/value heads and does not replicate them, so only 1 can be written for it.</source>
        <translation>--kv-size-multiplier %1：内置后端按完整的键/值头切分且不复制它们，因此只能写出 1。</translation>
    </message>
    <message>
        <source>%1 is a LoRA adapter: re-sharding writes a model&apos;s checkpoint.</source>
        <translation>%1 是 LoRA 适配器：重新分片写出的是模型的检查点。</translation>
    </message>
    <message>
        <source>The optimizer state %1 of tp rank %2 changed since it was checked.</source>
        <translation>tp rank %2 的优化器状态 %1 在检查之后发生了变化。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>The output does not read back as one checkpoint: %1</source>
        <translation>输出无法作为一个检查点读回：%1</translation>
    </message>
    <message>
        <source>The output reads back as other tensors than the source&apos;s.</source>
        <translation>输出读回后的张量与源检查点的不同。</translation>
    </message>
</context>
<context>
    <name>ingot::RunCompare</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>%1 (Slurm, partition %2)</source>
        <translation>%1（Slurm，分区 %2）</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>The graphs of %1 and %2 cannot be compared: the compile activity of both is needed.</source>
        <translation>无法比较 %1 和 %2 的图：需要两者的编译活动。</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>No job %1 in the history.</source>
        <translation>历史记录中没有作业 %1。</translation>
    </message>
    <message>
        <source>Where job %1 ran cannot be reached: %2</source>
        <translation>无法访问作业 %1 的运行位置：%2</translation>
    </message>
    <message>
        <source>Remote hosts are not available here.</source>
        <translation>此处无法使用远程主机。</translation>
    </message>
    <message>
        <source>Where it ran</source>
        <translation>运行位置</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>程序</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Model config</source>
        <translation>模型配置</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程数</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>ZeRO-1</source>
        <translation>ZeRO-1</translation>
    </message>
    <message>
        <source>FSDP</source>
        <translation>FSDP</translation>
    </message>
    <message>
        <source>Batch per device</source>
        <translation>每设备批大小</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Steps asked</source>
        <translation>请求的步数</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>Compiler</source>
        <translation>编译器</translation>
    </message>
    <message>
        <source>Compile cache</source>
        <translation>编译缓存</translation>
    </message>
    <message numerus="yes">
        <source>%n other flags</source>
        <translation>
            <numerusform>%n 个标志不同</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other compiler</source>
        <translation>
            <numerusform>%n 个编译器不同</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n new</source>
        <translation>
            <numerusform>%n 个新增</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in another cache</source>
        <translation>
            <numerusform>%n 个在另一个缓存中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n blocked</source>
        <translation>
            <numerusform>%n 个被阻止</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 compiled %n graph(s) %2 had: %3</source>
        <translation>
            <numerusform>%1 编译了 %2 已有的 %n 个图：%3</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 compiled no graph that %2 had.</source>
        <translation>%1 未编译任何 %2 已有的图。</translation>
    </message>
    <message numerus="yes">
        <source>%n graph(s) only %1 has.</source>
        <translation>
            <numerusform>%n 个图仅 %1 有。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n found compiled.</source>
        <translation>
            <numerusform>%n 个已找到编译结果。</numerusform>
        </translation>
    </message>
    <message>
        <source>an imported run&apos;s compile activity is not known</source>
        <translation>导入的运行的编译活动未知</translation>
    </message>
</context>
<context>
    <name>ingot::RunComparisonDialog</name>
    <message>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message numerus="yes">
        <source>Reading %n run(s)…</source>
        <translation>
            <numerusform>正在读取 %n 个运行…</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Curves</source>
        <translation>曲线(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Graphs</source>
        <translation>图(&amp;G)</translation>
    </message>
    <message>
        <source>Read the runs again: a running run has gone on</source>
        <translation>重新读取运行：正在进行的运行已有新进展</translation>
    </message>
    <message>
        <source>By step</source>
        <translation>按步数</translation>
    </message>
    <message>
        <source>By wall time</source>
        <translation>按实际时间</translation>
    </message>
    <message>
        <source>Draw each run against its steps, or against the seconds since it started</source>
        <translation>以步数或自开始以来的秒数为横轴绘制每个运行</translation>
    </message>
    <message>
        <source>&amp;X axis:</source>
        <translation>X 轴(&amp;X)：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Last loss</source>
        <translation>最近损失</translation>
    </message>
    <message>
        <source>Lowest loss</source>
        <translation>最低损失</translation>
    </message>
    <message>
        <source>Mean tokens/s</source>
        <translation>平均 tokens/s</translation>
    </message>
    <message>
        <source>Only the &amp;differences</source>
        <translation>仅显示差异(&amp;D)</translation>
    </message>
    <message>
        <source>%1 (%2), %3</source>
        <translation>%1（%2），%3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The runs recorded the same settings.</source>
        <translation>各运行记录的设置相同。</translation>
    </message>
    <message>
        <source>Settings that differ: %1</source>
        <translation>不同的设置：%1</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>The runs differ here</source>
        <translation>各运行在此处不同</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>This run has no such graph.</source>
        <translation>此运行没有该图。</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>ingot::RunImport</name>
    <message>
        <source>%1 could not be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>it is gone</source>
        <translation>它已不存在</translation>
    </message>
    <message>
        <source>%1 is over %2 bytes: only its start was read.</source>
        <translation>%1 超过 %2 字节：只读取了开头部分。</translation>
    </message>
    <message>
        <source>it is a link, not followed</source>
        <translation>它是链接，未跟随</translation>
    </message>
    <message>
        <source>not a trainer state</source>
        <translation>不是训练器状态文件</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n log_history entries without a step were skipped.</source>
        <translation>
            <numerusform>%1：已跳过 %n 个没有 step 的 log_history 条目。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n over-long line(s) skipped.</source>
        <translation>
            <numerusform>%1：已跳过 %n 个过长的行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Hugging Face / NeuronTrainer output</source>
        <translation>Hugging Face / NeuronTrainer 输出</translation>
    </message>
    <message>
        <source>TorchTitan output</source>
        <translation>TorchTitan 输出</translation>
    </message>
    <message>
        <source>Training logs</source>
        <translation>训练日志</translation>
    </message>
    <message>
        <source>TensorBoard event files</source>
        <translation>TensorBoard 事件文件</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n record(s) with a wrong CRC or not an event were skipped.</source>
        <translation>
            <numerusform>%1：已跳过 %n 条 CRC 错误或不是事件的记录。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n record(s) over %2 bytes were skipped.</source>
        <translation>
            <numerusform>%1：已跳过 %n 条超过 %2 字节的记录。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 不是文件夹。</translation>
    </message>
    <message>
        <source>%1 holds no training run Ingot knows: no trainer_state.json, no training log lines, no TensorBoard scalars, no checkpoints.</source>
        <translation>%1 中没有 Ingot 可识别的训练运行：没有 trainer_state.json、没有训练日志行、没有 TensorBoard 标量，也没有检查点。</translation>
    </message>
</context>
<context>
    <name>ingot::S3CacheStore</name>
    <message>
        <source>%1 is not in the listing of %2.</source>
        <translation>%1 不在 %2 的列表中。</translation>
    </message>
    <message>
        <source>S3 did not delete %1 of %2 objects of %3: %4</source>
        <translation>S3 未删除 %3 的 %2 个对象中的 %1 个：%4</translation>
    </message>
    <message>
        <source>%1 is not inside %2.</source>
        <translation>%1 不在 %2 之内。</translation>
    </message>
    <message>
        <source>%1 holds %2: a compile may be writing it; it was left.</source>
        <translation>%1 含有 %2：可能有编译正在写入它；已保留。</translation>
    </message>
    <message>
        <source>A compile on any machine may be writing %1, and that cannot be seen from here: its lock objects are treated as live unless they are older than an age you give.</source>
        <translation>任何机器上的编译都可能正在写入 %1，而从这里无法看出：除非它的锁对象早于你给出的时长，否则都视为仍被持有。</translation>
    </message>
</context>
<context>
    <name>ingot::S3Client</name>
    <message>
        <source>No AWS keys were found for %1 (the environment, the profile &quot;%2&quot;).</source>
        <translation>未找到 %1 的 AWS 密钥（环境变量、配置文件 “%2”）。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: S3 refused the keys (%2): check the secret key, the session token and the machine&apos;s clock.</source>
        <translation>%1：S3 拒绝了这些密钥（%2）：请检查私有访问密钥、会话令牌和本机时钟。</translation>
    </message>
    <message>
        <source>%1: the bucket %2 does not exist.</source>
        <translation>%1：存储桶 %2 不存在。</translation>
    </message>
    <message>
        <source>%1: S3 sent the request elsewhere (HTTP %2); the bucket may be in another region than %3.</source>
        <translation>%1：S3 将请求转到了别处（HTTP %2）；该存储桶可能位于 %3 以外的区域。</translation>
    </message>
    <message>
        <source>%1: HTTP %2 %3 %4</source>
        <translation>%1：HTTP %2 %3 %4</translation>
    </message>
    <message>
        <source>%1 is not under %2.</source>
        <translation>%1 不在 %2 之下。</translation>
    </message>
    <message>
        <source>Listing %1</source>
        <translation>列出 %1</translation>
    </message>
    <message>
        <source>the answer is not S3&apos;s XML (%1).</source>
        <translation>响应不是 S3 的 XML（%1）。</translation>
    </message>
    <message>
        <source>the server listed %1, which is not a plain key under the prefix: refused.</source>
        <translation>服务器列出了 %1，它不是该前缀下的普通键：已拒绝。</translation>
    </message>
    <message>
        <source>more than %1 keys: refused.</source>
        <translation>超过 %1 个键：已拒绝。</translation>
    </message>
    <message>
        <source>the server says there is more but gives no new continuation token: refused.</source>
        <translation>服务器表示还有更多内容，却没有给出新的续传令牌：已拒绝。</translation>
    </message>
    <message>
        <source>Reading %1: the server ignored the range asked for.</source>
        <translation>读取 %1：服务器忽略了所请求的范围。</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>读取 %1</translation>
    </message>
    <message>
        <source>%1 is not under %2: nothing was deleted.</source>
        <translation>%1 不在 %2 之下：未删除任何内容。</translation>
    </message>
    <message>
        <source>Deleting from %1</source>
        <translation>从 %1 删除</translation>
    </message>
    <message>
        <source>%1: the server did not answer the range asked for.</source>
        <translation>%1：服务器没有返回所请求的范围。</translation>
    </message>
    <message>
        <source>Writing %1</source>
        <translation>正在写入 %1</translation>
    </message>
    <message>
        <source>Starting the upload of %1: S3 gave no upload id.</source>
        <translation>开始上传 %1：S3 没有给出上传 ID。</translation>
    </message>
    <message>
        <source>Starting the upload of %1</source>
        <translation>开始上传 %1</translation>
    </message>
    <message>
        <source>Writing part %1 of %2</source>
        <translation>正在写入 %2 的第 %1 部分</translation>
    </message>
    <message>
        <source>Listing the parts of %1</source>
        <translation>正在列出 %1 的各部分</translation>
    </message>
    <message>
        <source>Listing the parts of %1: the answer is not S3&apos;s XML.</source>
        <translation>列出 %1 的各部分：回答不是 S3 的 XML。</translation>
    </message>
    <message>
        <source>Listing the parts of %1: the server gives no end to the list.</source>
        <translation>列出 %1 的各部分：服务器的列表没有尽头。</translation>
    </message>
    <message>
        <source>Completing the upload of %1</source>
        <translation>正在完成 %1 的上传</translation>
    </message>
    <message>
        <source>Completing the upload of %1: %2</source>
        <translation>完成 %1 的上传：%2</translation>
    </message>
    <message>
        <source>Abandoning the upload of %1</source>
        <translation>正在放弃 %1 的上传</translation>
    </message>
    <message>
        <source>the server still says there is more after %1 pages (%2 keys): refused as a listing without end.</source>
        <translation>服务器在 %1 页（%2 个键）之后仍说还有更多：作为没有尽头的列表被拒绝。</translation>
    </message>
    <message>
        <source>the server gave %1 keys in %2 pages and still says there is more (S3 gives up to 1,000 a page): refused as a listing without end.</source>
        <translation>服务器在 %2 页中给出了 %1 个键，仍说还有更多（S3 每页最多给出 1,000 个）：作为没有尽头的列表被拒绝。</translation>
    </message>
    <message>
        <source>the listing took more than %1 s (%2 pages, %3 keys so far): refused.</source>
        <translation>列出耗时超过 %1 秒（目前 %2 页、%3 个键）：已拒绝。</translation>
    </message>
</context>
<context>
    <name>ingot::S3Location</name>
    <message>
        <source>&quot;%1&quot; is not an S3 location (s3://bucket/prefix).</source>
        <translation>“%1” 不是 S3 位置（s3://bucket/prefix）。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a bucket name S3 allows (3 to 63 lower-case letters, digits, dots and hyphens).</source>
        <translation>“%1” 不是 S3 允许的存储桶名称（3 到 63 个小写字母、数字、点和连字符）。</translation>
    </message>
    <message>
        <source>The prefix &quot;%1&quot; has an empty, &quot;.&quot; or &quot;..&quot; part, or a control character: refused.</source>
        <translation>前缀 “%1” 含有空的、“.” 或 “..” 部分，或含有控制字符：已拒绝。</translation>
    </message>
    <message>
        <source>The S3 endpoint &quot;%1&quot; is not http(s)://host[:port].</source>
        <translation>S3 端点 “%1” 不是 http(s)://host[:port] 形式。</translation>
    </message>
    <message>
        <source>The AWS region &quot;%1&quot; is not a region name (letters, digits and hyphens, like us-east-1): no request is made.</source>
        <translation>AWS 区域“%1”不是区域名称（应由字母、数字和连字符组成，如 us-east-1）：不发出任何请求。</translation>
    </message>
</context>
<context>
    <name>ingot::S3Transfer</name>
    <message>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>S3 stored %1 with ETag %2, which is not the MD5 of what was sent.</source>
        <translation>S3 存储 %1 时给出的 ETag 为 %2，与所发送内容的 MD5 不符。</translation>
    </message>
    <message>
        <source>S3 stored part %1 of %2 with ETag %3, which is not the MD5 of what was sent.</source>
        <translation>S3 存储 %2 的第 %1 部分时给出的 ETag 为 %3，与所发送内容的 MD5 不符。</translation>
    </message>
    <message>
        <source>S3 completed %1 with ETag %2 instead of %3.</source>
        <translation>S3 完成 %1 时给出的 ETag 为 %2，而不是 %3。</translation>
    </message>
    <message>
        <source>%1 holds %2: a compile may be writing this entry; it was left.</source>
        <translation>%1 中有 %2：可能有编译正在写入此条目；已保留不动。</translation>
    </message>
    <message>
        <source>Already in %1 (with other files); left as it is.</source>
        <translation>%1 中已有此条目（文件不同）；保持原样。</translation>
    </message>
    <message>
        <source>Already in %1; left as it is.</source>
        <translation>%1 中已有此条目；保持原样。</translation>
    </message>
    <message>
        <source>%1 lists %2 with %3 bytes instead of %4 after the upload.</source>
        <translation>上传后 %1 列出的 %2 为 %3 字节，而不是 %4 字节。</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 sent more of %2 than the %3 bytes it lists.</source>
        <translation>%1 发送的 %2 超过了其列出的 %3 字节。</translation>
    </message>
    <message>
        <source>%1 arrived with %2 bytes instead of %3.</source>
        <translation>%1 收到 %2 字节，而不是 %3 字节。</translation>
    </message>
    <message>
        <source>%1 does not match its ETag %2: it changed while it was read, or arrived damaged.</source>
        <translation>%1 与其 ETag %2 不符：读取期间被修改，或传输中损坏。</translation>
    </message>
    <message>
        <source>Not in %1.</source>
        <translation>%1 中没有此条目。</translation>
    </message>
    <message>
        <source>Another transfer or a compile is writing this entry; it was left alone. Try again when it ends.</source>
        <translation>另一个传输或编译正在写入此条目；已保留不动。请在其结束后重试。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a cache entry (neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;).</source>
        <translation>“%1”不是缓存条目（neuronxcc-&lt;版本&gt;/MODULE_&lt;...&gt;）。</translation>
    </message>
    <message>
        <source>%1 does not match the SHA-256 S3 keeps for it: it arrived damaged.</source>
        <translation>%1 与 S3 为其保存的 SHA-256 不符：传输中已损坏。</translation>
    </message>
</context>
<context>
    <name>ingot::SampleCache</name>
    <message>
        <source>Cannot create %1: %2.</source>
        <translation>无法创建 %1：%2。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
    <message>
        <source>Cannot create the link %1: %2.</source>
        <translation>无法创建链接 %1：%2。</translation>
    </message>
    <message>
        <source>%1 already holds files; the sample cache is only written into an empty folder.</source>
        <translation>%1 中已有文件；示例缓存只会写入空文件夹。</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
</context>
<context>
    <name>ingot::SettingsDialog</name>
    <message>
        <source>Follow the disk while jobs compile (watch folders, rescan after changes)</source>
        <translation>任务编译时跟踪磁盘变化（监视文件夹，有变化时重新扫描）</translation>
    </message>
    <message>
        <source>Ingot Settings</source>
        <translation>Ingot 设置</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>Entries unused for longer are pruned; entries used within this window are always kept, even over the size limit. 0: no TTL (size limit alone, least recently used first).</source>
        <translation>超过此期限未使用的条目将被清理；在此期限内使用过的条目始终保留，即使超出大小上限。0：无 TTL（仅按大小上限清理，最近最少使用的优先）。</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>无上限</translation>
    </message>
    <message>
        <source>Prune policy (as the Neuron docs describe it)</source>
        <translation>清理策略（遵循 Neuron 文档中的说明）</translation>
    </message>
    <message>
        <source>Keep entries used within:</source>
        <translation>保留在此期间使用过的条目：</translation>
    </message>
    <message>
        <source>Cache size limit:</source>
        <translation>缓存大小上限：</translation>
    </message>
    <message>
        <source>Cache folders you added</source>
        <translation>您添加的缓存文件夹</translation>
    </message>
    <message>
        <source>Forget selected</source>
        <translation>移除所选</translation>
    </message>
    <message>
        <source>Removes the folder from this list; nothing on disk is touched.</source>
        <translation>仅从此列表中移除该文件夹，不会改动磁盘上的任何内容。</translation>
    </message>
    <message>
        <source>Settings are stored in %1</source>
        <translation>设置保存在 %1</translation>
    </message>
    <message>
        <source>Pull from the Hub as optimum-neuron does: files in the Hugging Face hub cache, linked into the compile cache</source>
        <translation>按 optimum-neuron 的方式从 Hub 拉取：文件存放在 Hugging Face hub 缓存中，再链接到编译缓存</translation>
    </message>
    <message>
        <source>Off (default): pulled modules are plain files in the compile cache. On: each file is a blob under $HF_HOME/hub, shared with huggingface_hub downloads, and linked from the entry.</source>
        <translation>关闭（默认）：拉取的模块以普通文件形式存放在编译缓存中。开启：每个文件都是 $HF_HOME/hub 下的一个 blob，与 huggingface_hub 的下载共享，并从条目链接过去。</translation>
    </message>
    <message>
        <source>Remote hosts (SSH)</source>
        <translation>远程主机（SSH）</translation>
    </message>
    <message>
        <source>your ssh config (~/.ssh/config and /etc/ssh/ssh_config)</source>
        <translation>您的 ssh 配置（~/.ssh/config 和 /etc/ssh/ssh_config）</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>An ssh config file</source>
        <translation>ssh 配置文件</translation>
    </message>
    <message>
        <source>ssh config file:</source>
        <translation>ssh 配置文件：</translation>
    </message>
    <message>
        <source>Empty: ssh reads your own config, as in a terminal. A file here is passed as &lt;tt&gt;ssh -F&lt;/tt&gt; and used &lt;i&gt;instead&lt;/i&gt; (Include your own config from it to keep both). The Remote hosts list shows its Host names.</source>
        <translation>留空：ssh 读取您自己的配置，与在终端中一样。在此指定文件时，会以 &lt;tt&gt;ssh -F&lt;/tt&gt; 传入并&lt;i&gt;替代&lt;/i&gt;默认配置（若要两者兼用，请在该文件中 Include 您自己的配置）。“远程主机”列表会显示其中的 Host 名称。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>系统默认</translation>
    </message>
    <message>
        <source>Restart now</source>
        <translation>立即重启</translation>
    </message>
    <message>
        <source>Saves these settings and starts Ingot again in the language chosen.</source>
        <translation>保存这些设置，并以所选语言重新启动 Ingot。</translation>
    </message>
    <message>
        <source>A new language applies when Ingot starts again.</source>
        <translation>新语言将在 Ingot 重新启动后生效。</translation>
    </message>
    <message>
        <source>%1 is not a file. Choose an ssh config file, or leave the field empty.</source>
        <translation>%1 不是文件。请选择 ssh 配置文件，或将此项留空。</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>&amp;Appearance:</source>
        <translation>外观(&amp;A)：</translation>
    </message>
    <message>
        <source>Compile caches in this environment</source>
        <translation>此环境中的编译缓存</translation>
    </message>
    <message>
        <source>off (NEURON_LIBTORCH_DISABLE_COMPILE_CACHE=1); </source>
        <translation>已关闭（NEURON_LIBTORCH_DISABLE_COMPILE_CACHE=1）；</translation>
    </message>
    <message>
        <source>none (NEURON_LIBTORCH_REMOTE_CACHE is not set)</source>
        <translation>无（未设置 NEURON_LIBTORCH_REMOTE_CACHE）</translation>
    </message>
    <message>
        <source>&lt;b&gt;neuronx-cc&lt;/b&gt; (torch-neuronx, optimum-neuron): %1</source>
        <translation>&lt;b&gt;neuronx-cc&lt;/b&gt;（torch-neuronx、optimum-neuron）：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;TorchNeuron / vLLM-Neuron&lt;/b&gt;: %1%2</source>
        <translation>&lt;b&gt;TorchNeuron / vLLM-Neuron&lt;/b&gt;：%1%2</translation>
    </message>
    <message>
        <source>Remote tier: %1.</source>
        <translation>远程层：%1。</translation>
    </message>
    <message>
        <source>&lt;b&gt;TorchNeuron NEFF cache&lt;/b&gt; (native PyTorch, Neuron 2.30 and later): %1</source>
        <translation>&lt;b&gt;TorchNeuron NEFF 缓存&lt;/b&gt;（原生 PyTorch，Neuron 2.30 及更高版本）：%1</translation>
    </message>
    <message>
        <source>Set by the environment Ingot was started in. ingot-cli cache status, ingot-cli torchneuron status and ingot-cli neff status show the same.</source>
        <translation>由启动 Ingot 时的环境设置。ingot-cli cache status、ingot-cli torchneuron status 和 ingot-cli neff status 会显示相同内容。</translation>
    </message>
    <message>
        <source>Desktop notifications, while Ingot is not in front</source>
        <translation>桌面通知（Ingot 不在前台时）</translation>
    </message>
</context>
<context>
    <name>ingot::Sha256</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
</context>
<context>
    <name>ingot::ShellCacheStore</name>
    <message>
        <source>the listing holds a path that leaves the root: %1</source>
        <translation>列表中包含超出根目录的路径：%1</translation>
    </message>
    <message>
        <source>Cannot read %1: permission denied.</source>
        <translation>无法读取 %1：权限不足。</translation>
    </message>
    <message>
        <source>the host&apos;s listing has no root record</source>
        <translation>主机返回的列表中没有根记录</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>The cache folder %1 does not exist.</source>
        <translation>缓存文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>Cannot open the cache folder %1: %2</source>
        <translation>无法打开缓存文件夹 %1：%2</translation>
    </message>
    <message>
        <source>not a folder, or not readable.</source>
        <translation>不是文件夹，或无法读取。</translation>
    </message>
    <message>
        <source>Refused to list &quot;%1&quot;: the path is outside the cache root.</source>
        <translation>拒绝列出“%1”：该路径位于缓存根目录之外。</translation>
    </message>
    <message>
        <source>Cannot list %1: %2</source>
        <translation>无法列出 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read %1: no such folder.</source>
        <translation>无法读取 %1：文件夹不存在。</translation>
    </message>
    <message>
        <source>Refused to read &quot;%1&quot;: the path is outside the cache root.</source>
        <translation>拒绝读取“%1”：该路径位于缓存根目录之外。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>a symbolic link</source>
        <translation>是符号链接</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>Refused to remove &quot;%1&quot;: the path is outside the cache root.</source>
        <translation>拒绝删除“%1”：该路径位于缓存根目录之外。</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <source>it no longer exists.</source>
        <translation>它已不存在。</translation>
    </message>
    <message>
        <source>the host refused (permissions?).</source>
        <translation>主机拒绝了操作（权限问题？）。</translation>
    </message>
    <message>
        <source>%1 is locked: a compile started on it. Left in place.</source>
        <translation>%1 已被锁定：有编译已在其上开始。已保留原样。</translation>
    </message>
    <message>
        <source>Cannot remove %1: it no longer exists.</source>
        <translation>无法删除 %1：它已不存在。</translation>
    </message>
    <message>
        <source>Cannot remove %1: it could not be renamed aside.</source>
        <translation>无法删除 %1：无法将其重命名移开。</translation>
    </message>
    <message>
        <source>Cannot remove %1: not all of it can be removed (permissions or a mount); left whole.</source>
        <translation>无法删除 %1：其中部分内容无法删除（权限或挂载点问题）；已完整保留。</translation>
    </message>
    <message>
        <source>Removing %1 stopped part-way; what is left is in a .ingot-removing-* folder beside it.</source>
        <translation>删除 %1 时中途停止；剩余内容位于其旁边的 .ingot-removing-* 文件夹中。</translation>
    </message>
    <message>
        <source>Cannot tell whether neuronx-cc is running on %1: %2</source>
        <translation>无法确定 %1 上的 neuronx-cc 是否正在运行：%2</translation>
    </message>
    <message>
        <source>/proc is not available</source>
        <translation>/proc 不可用</translation>
    </message>
    <message>
        <source>the host&apos;s listing is not in the expected form (byte %1)</source>
        <translation>主机的列表格式不符合预期（字节 %1）</translation>
    </message>
    <message>
        <source>the listing is too large: more than %1 files, folders and links (Ingot reads at most that many from a host)</source>
        <translation>列表过大：超过 %1 个文件、文件夹和链接（Ingot 从主机最多读取这么多）</translation>
    </message>
    <message>
        <source>Cannot read %1: not a folder (a link is never followed).</source>
        <translation>无法读取 %1：不是文件夹（从不跟随链接）。</translation>
    </message>
    <message>
        <source>%1 is no longer the folder that was opened (it was replaced, or a link on its path now points elsewhere).</source>
        <translation>%1 已不是打开时的那个文件夹（它被替换了，或其路径上的某个链接现在指向别处）。</translation>
    </message>
    <message>
        <source>the cache folder was replaced since it was opened.</source>
        <translation>缓存文件夹在打开后被替换了。</translation>
    </message>
    <message>
        <source>Refused to remove %1: it or a folder on its path is not a folder (a link is never followed).</source>
        <translation>拒绝删除 %1：它或其路径上的某个文件夹不是文件夹（从不跟随链接）。</translation>
    </message>
    <message>
        <source>Refused to remove %1: the cache folder was replaced since it was opened (or a link on its path now points elsewhere).</source>
        <translation>拒绝删除 %1：缓存文件夹在打开后被替换了（或其路径上的某个链接现在指向别处）。</translation>
    </message>
    <message>
        <source>Cannot remove %1: the host did not confirm the removal.</source>
        <translation>无法删除 %1：主机没有确认删除。</translation>
    </message>
</context>
<context>
    <name>ingot::ShellJobRunner</name>
    <message>
        <source>%1 does not hold Ingot&apos;s training backend (ingot_train/__init__.py).</source>
        <translation>%1 中没有 Ingot 的训练后端（ingot_train/__init__.py）。</translation>
    </message>
    <message>
        <source>Cannot read %1.</source>
        <translation>无法读取 %1。</translation>
    </message>
    <message>
        <source>%1 cannot be reached: %2</source>
        <translation>无法访问 %1：%2</translation>
    </message>
    <message>
        <source>%1 did not say where the home folder is.</source>
        <translation>%1 未返回主目录的位置。</translation>
    </message>
    <message>
        <source>%1 is not connected.</source>
        <translation>%1 未连接。</translation>
    </message>
    <message>
        <source>Cannot pack the backend in %1.</source>
        <translation>无法在 %1 中打包后端。</translation>
    </message>
    <message>
        <source>Copying the training backend to %1 failed: %2</source>
        <translation>将训练后端复制到 %1 失败：%2</translation>
    </message>
    <message>
        <source>Cannot create the folder for the training backend on %1.</source>
        <translation>无法在 %1 上为训练后端创建文件夹。</translation>
    </message>
    <message>
        <source>Unpacking the training backend into %1 failed (is tar installed there?).</source>
        <translation>将训练后端解包到 %1 失败（该处是否安装了 tar？）。</translation>
    </message>
    <message>
        <source>The training backend copied to %1 does not match its files here.</source>
        <translation>复制到 %1 的训练后端与本地文件不一致。</translation>
    </message>
    <message>
        <source>Cannot put the training backend in place at %1.</source>
        <translation>无法将训练后端放到 %1。</translation>
    </message>
    <message>
        <source>Cannot create %1 on %2.</source>
        <translation>无法在 %2 上创建 %1。</translation>
    </message>
    <message>
        <source>Refused to write %1: not an absolute path.</source>
        <translation>拒绝写入 %1：不是绝对路径。</translation>
    </message>
    <message>
        <source>Cannot write %1: its folder does not exist.</source>
        <translation>无法写入 %1：其所在文件夹不存在。</translation>
    </message>
    <message>
        <source>Writing %1 was cut short; nothing was changed.</source>
        <translation>写入 %1 时被中断；未做任何更改。</translation>
    </message>
    <message>
        <source>Cannot write %1: a folder has that name.</source>
        <translation>无法写入 %1：已有同名文件夹。</translation>
    </message>
    <message>
        <source>Cannot write %1 on %2.</source>
        <translation>无法在 %2 上写入 %1。</translation>
    </message>
    <message>
        <source>Cannot start %1 on %2.</source>
        <translation>无法在 %2 上启动 %1。</translation>
    </message>
    <message>
        <source>a symbolic link (not followed)</source>
        <translation>是符号链接（不跟随）</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>the host&apos;s answer is not in the expected form</source>
        <translation>主机的响应格式不符合预期</translation>
    </message>
    <message>
        <source>Refused to remove %1: it is not inside %2.</source>
        <translation>拒绝删除 %1：它不在 %2 内。</translation>
    </message>
    <message>
        <source>Cannot remove %1: it no longer exists.</source>
        <translation>无法删除 %1：它已不存在。</translation>
    </message>
    <message>
        <source>Refused to remove %1: not a folder (a link is never followed).</source>
        <translation>拒绝删除 %1：不是文件夹（从不跟随链接）。</translation>
    </message>
    <message>
        <source>Cannot remove %1: it could not be renamed aside.</source>
        <translation>无法删除 %1：无法将其重命名移开。</translation>
    </message>
    <message>
        <source>Refused to remove %1: it is not inside %2 (a link leads elsewhere).</source>
        <translation>拒绝删除 %1：它不在 %2 内（有链接指向别处）。</translation>
    </message>
    <message>
        <source>Removing %1 stopped part-way; what is left is in a .ingot-removing-* folder beside it.</source>
        <translation>删除 %1 时中途停止；剩余内容位于其旁边的 .ingot-removing-* 文件夹中。</translation>
    </message>
    <message>
        <source>%1 could not be checked on %2.</source>
        <translation>无法在 %2 上检查 %1。</translation>
    </message>
    <message>
        <source>Process %1 is not a process Ingot recorded.</source>
        <translation>进程 %1 不是 Ingot 记录的进程。</translation>
    </message>
    <message>
        <source>%1 restarted since the job started: process %2 is not the job&apos;s.</source>
        <translation>任务启动后 %1 已重启：进程 %2 不是该任务的进程。</translation>
    </message>
    <message>
        <source>Process %1 has ended (its pid is not the job&apos;s launcher any more).</source>
        <translation>进程 %1 已结束（其 pid 已不再属于该任务的启动器）。</translation>
    </message>
    <message>
        <source>%1 has no /proc: its processes cannot be checked.</source>
        <translation>%1 没有 /proc：无法检查其进程。</translation>
    </message>
    <message>
        <source>Cannot signal process %1 on %2.</source>
        <translation>无法向 %2 上的进程 %1 发送信号。</translation>
    </message>
    <message>
        <source>%1 has no /proc/net/tcp: cannot find a free port for the rendezvous.</source>
        <translation>%1 没有 /proc/net/tcp：无法为 rendezvous 查找空闲端口。</translation>
    </message>
    <message>
        <source>No free TCP port on %1 for the rendezvous.</source>
        <translation>%1 上没有可用于 rendezvous 的空闲 TCP 端口。</translation>
    </message>
    <message>
        <source>does not run Python 3 (or did not answer within 60 s)</source>
        <translation>不是可用的 Python 3（或 60 秒内无响应）</translation>
    </message>
    <message>
        <source>Refused to write %1: its folder is a link (never followed).</source>
        <translation>拒绝写入 %1：其文件夹是链接（从不跟随）。</translation>
    </message>
    <message>
        <source>%1 has no ingot-cli: install Ingot there (its package, or ingot-cli on the PATH).</source>
        <translation>%1 上没有 ingot-cli：请在该主机上安装 Ingot（其软件包，或将 ingot-cli 放到 PATH 中）。</translation>
    </message>
    <message>
        <source>ingot-cli could not be started on %1.</source>
        <translation>无法在 %1 上启动 ingot-cli。</translation>
    </message>
    <message>
        <source>Stopped: ingot-cli on %1 was asked to stop and removed what it was writing.</source>
        <translation>已停止：已要求 %1 上的 ingot-cli 停止，它已删除正在写入的内容。</translation>
    </message>
    <message>
        <source>ingot-cli on %1 did not end within %2 s: it was stopped.</source>
        <translation>%1 上的 ingot-cli 未在 %2 秒内结束：已将其停止。</translation>
    </message>
    <message>
        <source>ingot-cli&apos;s folder on %1 is gone.</source>
        <translation>%1 上的 ingot-cli 文件夹已不存在。</translation>
    </message>
</context>
<context>
    <name>ingot::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between key sequences</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>Tab and Shift+Tab move between fields; the Menu key or Shift+F10 opens a list&apos;s context menu; Alt with an underlined letter opens a menu.</source>
        <translation>Tab 和 Shift+Tab 在各字段间移动；菜单键或 Shift+F10 打开列表的上下文菜单；Alt 加带下划线的字母打开菜单。</translation>
    </message>
</context>
<context>
    <name>ingot::SlurmBatchScript</name>
    <message>
        <source>The %1 &quot;%2&quot; cannot go into an #SBATCH line: no spaces, quotes, backslashes or control characters.</source>
        <translation>%1 &quot;%2&quot; 不能写入 #SBATCH 行：不能有空格、引号、反斜杠或控制字符。</translation>
    </message>
    <message>
        <source>Nodes (%1) and processes per node (%2) must be at least 1.</source>
        <translation>节点数（%1）和每节点进程数（%2）必须至少为 1。</translation>
    </message>
    <message>
        <source>No torchrun agent command.</source>
        <translation>没有 torchrun 代理命令。</translation>
    </message>
    <message>
        <source>The job folder &quot;%1&quot; is not an absolute path.</source>
        <translation>作业文件夹 &quot;%1&quot; 不是绝对路径。</translation>
    </message>
    <message>
        <source>An argument contains a NUL byte.</source>
        <translation>某个参数包含 NUL 字节。</translation>
    </message>
    <message>
        <source>The job folder contains a NUL byte.</source>
        <translation>作业文件夹包含 NUL 字节。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a Slurm time limit (minutes, H:MM:SS or D-HH:MM:SS).</source>
        <translation>&quot;%1&quot; 不是 Slurm 时间限制（分钟、H:MM:SS 或 D-HH:MM:SS）。</translation>
    </message>
    <message>
        <source>job name</source>
        <translation>作业名称</translation>
    </message>
    <message>
        <source>partition</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>account</source>
        <translation>账户</translation>
    </message>
    <message>
        <source>QoS</source>
        <translation>QoS</translation>
    </message>
    <message>
        <source>output file pattern</source>
        <translation>输出文件模式</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not one #SBATCH line (it must start with &quot;#SBATCH &quot; and hold no line break or control character).</source>
        <translation>&quot;%1&quot; 不是一行 #SBATCH（必须以 &quot;#SBATCH &quot; 开头，且不含换行或控制字符）。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*).</source>
        <translation>&quot;%1&quot; 不是环境变量名（[A-Za-z_][A-Za-z0-9_]*）。</translation>
    </message>
    <message>
        <source>The value of %1 contains a NUL byte.</source>
        <translation>%1 的值包含 NUL 字节。</translation>
    </message>
</context>
<context>
    <name>ingot::SlurmCluster</name>
    <message>
        <source>Could not ask Slurm on %1: %2</source>
        <translation>无法在 %1 上询问 Slurm：%2</translation>
    </message>
    <message>
        <source>No Slurm on %1: sinfo and sbatch are not on the PATH there.</source>
        <translation>%1 上没有 Slurm：那里的 PATH 中没有 sinfo 和 sbatch。</translation>
    </message>
    <message>
        <source>Slurm on %1 did not answer: %2</source>
        <translation>%1 上的 Slurm 没有响应：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a Slurm job id</source>
        <translation>&quot;%1&quot; 不是 Slurm 作业 ID</translation>
    </message>
    <message>
        <source>Slurm on %1 knows no job %2</source>
        <translation>%1 上的 Slurm 不知道作业 %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an sbatch option (--name=value)</source>
        <translation>&quot;%1&quot; 不是 sbatch 选项（--name=value）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a batch script path</source>
        <translation>&quot;%1&quot; 不是批处理脚本路径</translation>
    </message>
    <message>
        <source>sbatch failed (exit status %1)</source>
        <translation>sbatch 失败（退出状态 %1）</translation>
    </message>
    <message>
        <source>scancel failed (exit status %1)</source>
        <translation>scancel 失败（退出状态 %1）</translation>
    </message>
    <message>
        <source>No Slurm: sinfo and sbatch are not on the PATH.</source>
        <translation>没有 Slurm：PATH 中没有 sinfo 和 sbatch。</translation>
    </message>
    <message>
        <source>Slurm %1, cluster %2</source>
        <translation>Slurm %1，集群 %2</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>Slurm&apos;s clients are on %1 but no slurm.conf was found there (SLURM_CONF is not set, and none is in /etc/slurm or beside the clients).</source>
        <translation>%1 上有 Slurm 客户端，但找不到 slurm.conf（未设置 SLURM_CONF，/etc/slurm 和客户端旁边也没有）。</translation>
    </message>
    <message>
        <source>The Slurm configuration %1 is not there on %2.</source>
        <translation>%2 上没有 Slurm 配置 %1。</translation>
    </message>
    <message>
        <source>No Slurm cluster answered there: %1</source>
        <translation>那里没有 Slurm 集群应答：%1</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2：%3</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>未给出原因</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Nodes: %1</source>
        <translation>节点：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n CPU(s)</source>
        <translation>
            <numerusform>%n 个 CPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n node(s) (%2 idle, %3 mixed, %4 allocated, %5 drained, %6 down), %7, limit %8</source>
        <translation>
            <numerusform>%1：%n 个节点（%2 空闲、%3 部分占用、%4 已分配、%5 已排空、%6 宕机），%7，时限 %8</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n CPU(s), %1</source>
        <translation>
            <numerusform>%n 个 CPU，%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Your queue: %n job(s).</source>
        <translation>
            <numerusform>你的队列：%n 个作业。</numerusform>
        </translation>
    </message>
    <message>
        <source>Slurm&apos;s record of job %1 on %2 cannot be read: its name or comment holds text that reads as Slurm&apos;s own fields.</source>
        <translation>无法读取 Slurm 对 %2 上作业 %1 的记录：它的名称或注释中含有看起来像 Slurm 自身字段的文本。</translation>
    </message>
</context>
<context>
    <name>ingot::SlurmQueueSection</name>
    <message>
        <source>Other jobs in your Slurm queue (submitted outside Ingot, read-only)</source>
        <translation>您的 Slurm 队列中的其他作业（在 Ingot 之外提交，只读）</translation>
    </message>
    <message>
        <source>Show &amp;output</source>
        <translation>显示输出(&amp;O)</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
    <message>
        <source>Slurm job</source>
        <translation>Slurm 作业</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Time (used / limit)</source>
        <translation>时间（已用 / 上限）</translation>
    </message>
    <message>
        <source>Output file</source>
        <translation>输出文件</translation>
    </message>
    <message>
        <source>The end of the selected job&apos;s output file, read where the job writes it</source>
        <translation>所选作业输出文件的末尾，从作业写入的位置读取</translation>
    </message>
    <message>
        <source>Ask the clusters for your queue again (squeue --me)</source>
        <translation>再次向集群询问您的队列（squeue --me）</translation>
    </message>
    <message>
        <source>Asking for your queue…</source>
        <translation>正在询问您的队列…</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1
in %2</source>
        <translation>%1
位于 %2</translation>
    </message>
    <message numerus="yes">
        <source>No other jobs in your queue on %n cluster(s).</source>
        <translation>
            <numerusform>%n 个集群上您的队列中没有其他作业。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other job(s) in your queue.</source>
        <translation>
            <numerusform>您的队列中有 %n 个其他作业。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not asked: %1</source>
        <translation>未询问：%1</translation>
    </message>
    <message>
        <source>Output of Slurm job %1</source>
        <translation>Slurm 作业 %1 的输出</translation>
    </message>
</context>
<context>
    <name>ingot::SlurmSection</name>
    <message>
        <source>Submit through Slurm</source>
        <translation>通过 Slurm 提交</translation>
    </message>
    <message>
        <source>Whole nodes (--exclusive, as the Neuron tutorials)</source>
        <translation>独占整个节点（--exclusive，与 Neuron 教程一致）</translation>
    </message>
    <message>
        <source>sbatch on the machine chosen in Run on: one torchrun agent per allocated node (Nodes), the job folder on the cluster&apos;s shared filesystem</source>
        <translation>在“运行于”所选的机器上执行 sbatch：每个分配的节点（节点数）运行一个 torchrun 代理，任务文件夹位于集群的共享文件系统上</translation>
    </message>
    <message>
        <source>Empty: the cluster&apos;s default partition</source>
        <translation>留空：使用集群的默认分区</translation>
    </message>
    <message>
        <source>The partition&apos;s default (minutes, H:MM:SS, D-HH:MM:SS)</source>
        <translation>分区的默认值（分钟、H:MM:SS、D-HH:MM:SS）</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <source>#SBATCH --mem=0
#SBATCH --constraint=trn1.32xlarge</source>
        <translation>#SBATCH --mem=0
#SBATCH --constraint=trn1.32xlarge</translation>
    </message>
    <message>
        <source>Partition:</source>
        <translation>分区：</translation>
    </message>
    <message>
        <source>Time limit:</source>
        <translation>时间限制：</translation>
    </message>
    <message>
        <source>Account:</source>
        <translation>账户：</translation>
    </message>
    <message>
        <source>QoS:</source>
        <translation>QoS：</translation>
    </message>
    <message>
        <source>Extra #SBATCH lines:</source>
        <translation>额外的 #SBATCH 行：</translation>
    </message>
    <message>
        <source>Asking the Slurm cluster of %1…</source>
        <translation>正在询问 %1 的 Slurm 集群…</translation>
    </message>
    <message>
        <source>Slurm could not be asked: %1</source>
        <translation>无法询问 Slurm：%1</translation>
    </message>
    <message>
        <source>No Slurm there: sinfo and sbatch are not on the PATH.</source>
        <translation>那里没有 Slurm：PATH 中没有 sinfo 和 sbatch。</translation>
    </message>
    <message>
        <source>, default</source>
        <translation>，默认</translation>
    </message>
    <message>
        <source>Precompile first (neuron_parallel_compile, a Slurm job of its own)</source>
        <translation>先预编译（neuron_parallel_compile，单独的 Slurm 作业）</translation>
    </message>
    <message>
        <source>A first Slurm job runs the same command under the Neuron SDK&apos;s neuron_parallel_compile, which compiles every graph into the cache in parallel; the training job waits for it (--dependency=afterok) and is cancelled by Slurm if it fails. Needs neuron_parallel_compile beside the job&apos;s Python or on the PATH there.</source>
        <translation>第一个 Slurm 作业在 Neuron SDK 的 neuron_parallel_compile 下运行相同的命令，把每个计算图并行编译进缓存；训练作业等待它完成（--dependency=afterok），若它失败则由 Slurm 取消。需要 neuron_parallel_compile 位于作业的 Python 旁边或那里的 PATH 中。</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2 of %n node(s) idle, limit %3)%4</source>
        <translation>
            <numerusform>%1（%n 个节点中 %2 个空闲，时限 %3）%4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n job(s)</source>
        <translation>
            <numerusform>%n 个作业</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Slurm %1, cluster %2: %n partition(s), your queue holds %3.</source>
        <translation>
            <numerusform>Slurm %1，集群 %2：%n 个分区，你的队列中有 %3。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::SlurmState</name>
    <message>
        <source>PENDING</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>RUNNING</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>COMPLETING</source>
        <translation>正在结束</translation>
    </message>
    <message>
        <source>COMPLETED</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>CANCELLED</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>TIMEOUT</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>NODE_FAIL</source>
        <translation>节点故障</translation>
    </message>
    <message>
        <source>OUT_OF_MEMORY</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>PREEMPTED</source>
        <translation>被抢占</translation>
    </message>
    <message>
        <source>SUSPENDED</source>
        <translation>已挂起</translation>
    </message>
    <message>
        <source>CONFIGURING</source>
        <translation>配置中</translation>
    </message>
    <message>
        <source>BOOT_FAIL</source>
        <translation>启动失败</translation>
    </message>
    <message>
        <source>DEADLINE</source>
        <translation>超过截止时间</translation>
    </message>
    <message>
        <source>REQUEUED</source>
        <translation>已重新排队</translation>
    </message>
    <message>
        <source>RESIZING</source>
        <translation>调整大小中</translation>
    </message>
</context>
<context>
    <name>ingot::SshConnection</name>
    <message>
        <source>%1

ssh said: %2</source>
        <translation>%1

ssh 输出：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host Ingot can connect to: use an alias from your ssh config, host, user@host or user@host:port.</source>
        <translation>“%1”不是 Ingot 可以连接的主机：请使用 ssh 配置中的别名、host、user@host 或 user@host:port。</translation>
    </message>
    <message>
        <source>The OpenSSH client (ssh) cannot be started. Install it (package openssh-client) and try again.</source>
        <translation>无法启动 OpenSSH 客户端（ssh）。请安装它（软件包 openssh-client）后重试。</translation>
    </message>
    <message>
        <source>The host key of %1 is not known yet. Check its fingerprint with the host&apos;s administrator before you accept it.</source>
        <translation>尚未记录 %1 的主机密钥。接受之前，请先与该主机的管理员核对其指纹。</translation>
    </message>
    <message>
        <source>The host key of %1 has CHANGED since it was last recorded in known_hosts. Someone may be intercepting the connection (a man-in-the-middle attack), or the host was reinstalled. Ingot will not connect. Ask the host&apos;s administrator for the new key&apos;s fingerprint; only if it matches, remove the old entry yourself (ssh-keygen -R) and connect again.</source>
        <translation>%1 的主机密钥已变更：与上次记录在 known_hosts 中的不一致。可能有人正在拦截连接（中间人攻击），也可能该主机已重装系统。Ingot 不会连接。请向该主机的管理员索取新密钥的指纹；只有在指纹一致时，才自行删除旧条目（ssh-keygen -R）并重新连接。</translation>
    </message>
    <message>
        <source>%1 did not accept any of your keys. Check the user name and that your public key is in ~/.ssh/authorized_keys there, or load your key into ssh-agent.</source>
        <translation>%1 未接受你的任何密钥。请检查用户名，并确认你的公钥已添加到该主机的 ~/.ssh/authorized_keys 中，或将密钥加载到 ssh-agent。</translation>
    </message>
    <message>
        <source>%1 refused the connection: no ssh server listens on that port. Check the port and that sshd runs there.</source>
        <translation>%1 拒绝了连接：该端口上没有 ssh 服务器在监听。请检查端口，并确认该主机上正在运行 sshd。</translation>
    </message>
    <message>
        <source>%1 did not answer in time. Check the host name, the VPN or security group, and try again.</source>
        <translation>%1 未及时响应。请检查主机名、VPN 或安全组，然后重试。</translation>
    </message>
    <message>
        <source>The host name of %1 does not resolve. Check its spelling or the HostName in your ssh config.</source>
        <translation>无法解析 %1 的主机名。请检查拼写，或 ssh 配置中的 HostName。</translation>
    </message>
    <message>
        <source>%1 cannot be reached from this machine (no route). Check the network or VPN.</source>
        <translation>无法从本机访问 %1（无路由）。请检查网络或 VPN。</translation>
    </message>
    <message>
        <source>The connection to %1 was lost (the server closed it or the network dropped). Connect again.</source>
        <translation>与 %1 的连接已断开（服务器关闭了连接或网络中断）。请重新连接。</translation>
    </message>
    <message>
        <source>The command on %1 printed more than Ingot reads at once; it was stopped.</source>
        <translation>%1 上的命令输出超出了 Ingot 单次读取的上限；已停止该命令。</translation>
    </message>
    <message>
        <source>ssh could not connect to %1.</source>
        <translation>ssh 无法连接到 %1。</translation>
    </message>
    <message>
        <source>Cannot listen for passphrase prompts in %1.</source>
        <translation>无法在 %1 中监听口令提示。</translation>
    </message>
    <message>
        <source>Cannot create a temporary folder: %1</source>
        <translation>无法创建临时文件夹：%1</translation>
    </message>
    <message>
        <source>Cannot read the fingerprint of the key %1 offered.</source>
        <translation>无法读取 %1 所提供密钥的指纹。</translation>
    </message>
    <message>
        <source>No host key to add.</source>
        <translation>没有要添加的主机密钥。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Ingot found no private folder for ssh&apos;s control sockets: %1 is not a folder of yours only, and a new one cannot be made in %2 (%3).</source>
        <translation>Ingot 找不到存放 ssh 控制套接字的私有文件夹：%1 不是只属于你的文件夹，且无法在 %2 中新建（%3）。</translation>
    </message>
</context>
<context>
    <name>ingot::SshHost</name>
    <message>
        <source>Enter a host: an alias from your ssh config, host, user@host or user@host:port.</source>
        <translation>请输入主机：ssh 配置中的别名、host、user@host 或 user@host:port。</translation>
    </message>
    <message>
        <source>The host is too long.</source>
        <translation>主机过长。</translation>
    </message>
    <message>
        <source>A host cannot contain spaces or control characters.</source>
        <translation>主机中不能包含空格或控制字符。</translation>
    </message>
    <message>
        <source>A host cannot start with &apos;-&apos; (it would be read as an ssh option).</source>
        <translation>主机不能以 &apos;-&apos; 开头（否则会被当作 ssh 选项）。</translation>
    </message>
    <message>
        <source>The user name before &apos;@&apos; is not valid.</source>
        <translation>&apos;@&apos; 前的用户名无效。</translation>
    </message>
    <message>
        <source>A &apos;[&apos; without its &apos;]&apos;.</source>
        <translation>&apos;[&apos; 缺少对应的 &apos;]&apos;。</translation>
    </message>
    <message>
        <source>The port after &apos;]&apos; must be &apos;:&apos; and a number from 1 to 65535.</source>
        <translation>&apos;]&apos; 之后必须是 &apos;:&apos; 加端口号（1 到 65535 之间的数字）。</translation>
    </message>
    <message>
        <source>The port after &apos;:&apos; must be a number from 1 to 65535.</source>
        <translation>&apos;:&apos; 之后的端口必须是 1 到 65535 之间的数字。</translation>
    </message>
    <message>
        <source>The host name is missing or starts with &apos;-&apos;.</source>
        <translation>缺少主机名，或主机名以 &apos;-&apos; 开头。</translation>
    </message>
    <message>
        <source>The host name contains characters no host name or ssh alias uses.</source>
        <translation>主机名中包含主机名或 ssh 别名都不会使用的字符。</translation>
    </message>
</context>
<context>
    <name>ingot::SshResolve</name>
    <message>
        <source>No host given.</source>
        <translation>未指定主机。</translation>
    </message>
    <message>
        <source>Cannot run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <source>ssh cannot resolve %1: %2</source>
        <translation>ssh 无法解析 %1：%2</translation>
    </message>
</context>
<context>
    <name>ingot::StallBanner</name>
    <message>
        <source>Dump stacks</source>
        <translation>转储堆栈</translation>
    </message>
    <message>
        <source>Stall &amp;threshold…</source>
        <translation>停滞阈值(&amp;T)…</translation>
    </message>
    <message>
        <source>When the job counts as stalled: its step has not advanced for this long while it runs (default: 10 × its median step time, at least 5 minutes)</source>
        <translation>作业何时算作停滞：运行中其步骤在这么长时间内没有推进（默认：其步骤时间中位数的 10 倍，至少 5 分钟）</translation>
    </message>
    <message>
        <source>Stall threshold</source>
        <translation>停滞阈值</translation>
    </message>
    <message>
        <source>Report the job stalled when its step has not advanced for (90s, 10m, 2h; empty: 10 × its median step time, at least 5 minutes):</source>
        <translation>当作业的步骤在以下时长内没有推进时报告停滞（90s、10m、2h；留空：其步骤时间中位数的 10 倍，至少 5 分钟）：</translation>
    </message>
    <message>
        <source>Not a duration: %1. Write 90s, 10m or 2h.</source>
        <translation>不是时长：%1。请写成 90s、10m 或 2h。</translation>
    </message>
    <message>
        <source>Not a duration</source>
        <translation>不是时长</translation>
    </message>
    <message>
        <source>The job is no longer stalled. The stacks below were dumped while it was.</source>
        <translation>作业已不再停滞。下面的堆栈是在停滞时转储的。</translation>
    </message>
    <message>
        <source>Ask each rank for its Python stacks (SIGUSR2 to the backend&apos;s ranks, which dump them with faulthandler); a program that did not register that is never signalled</source>
        <translation>向每个 rank 询问其 Python 堆栈（向后端的 rank 发送 SIGUSR2，它们用 faulthandler 转储）；未注册该处理的程序绝不会收到信号</translation>
    </message>
    <message>
        <source>This job&apos;s ranks did not say that they dump their stacks on SIGUSR2 (not Ingot&apos;s backend): py-spy dump --pid PID where it runs, if installed, shows them</source>
        <translation>此作业的 rank 未表明会在收到 SIGUSR2 时转储堆栈（不是 Ingot 的后端）：如果装有 py-spy，可在其运行处用 py-spy dump --pid PID 查看</translation>
    </message>
    <message>
        <source>Asking the ranks for their stacks…</source>
        <translation>正在向各 rank 询问堆栈…</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>No stack came from rank(s) %1 in time.</source>
        <translation>rank %1 未及时写出堆栈。</translation>
    </message>
</context>
<context>
    <name>ingot::State</name>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Locked</source>
        <translation>已锁定</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>Empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Unknown folder</source>
        <translation>未知文件夹</translation>
    </message>
    <message>
        <source>Unknown file</source>
        <translation>未知文件</translation>
    </message>
    <message>
        <source>Linked folder</source>
        <translation>链接的文件夹</translation>
    </message>
    <message>
        <source>SUCCESS</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>LOCKED</source>
        <translation>已锁定</translation>
    </message>
    <message>
        <source>INCOMPLETE</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>EMPTY</source>
        <translation>空</translation>
    </message>
    <message>
        <source>UNKNOWN</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>ingot::StoreFactory</name>
    <message>
        <source>Ingot cannot open caches of the kind &quot;%1&quot; (%2).</source>
        <translation>Ingot 无法打开“%1”类型的缓存（%2）。</translation>
    </message>
    <message>
        <source>Ingot cannot open the cache %1.</source>
        <translation>Ingot 无法打开缓存 %1。</translation>
    </message>
</context>
<context>
    <name>ingot::Sts</name>
    <message>
        <source>The STS endpoint %1 is not an http(s) URL.</source>
        <translation>STS 端点 %1 不是 http(s) URL。</translation>
    </message>
    <message>
        <source>Assuming the role %1</source>
        <translation>正在代入角色 %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: STS answered HTTP %2 %3</source>
        <translation>%1：STS 返回 HTTP %2 %3</translation>
    </message>
    <message>
        <source>%1: STS&apos;s answer holds no temporary keys.</source>
        <translation>%1：STS 的回答中没有临时密钥。</translation>
    </message>
    <message>
        <source>%1: STS gave keys whose %2 holds a control character, which would go into an HTTP header: refused.</source>
        <translation>%1：STS 给出的密钥中 %2 含有控制字符，它会进入 HTTP 头：已拒绝。</translation>
    </message>
</context>
<context>
    <name>ingot::TfEventReader</name>
    <message>
        <source>The record at byte %1 has a length whose CRC is wrong: the rest of the file cannot be read.</source>
        <translation>位于字节 %1 的记录，其长度的 CRC 错误：无法读取文件的其余部分。</translation>
    </message>
</context>
<context>
    <name>ingot::TorchNeuron</name>
    <message>
        <source>VLLM_CACHE_ROOT is set: $VLLM_CACHE_ROOT/neuron/compile_cache.</source>
        <translation>已设置 VLLM_CACHE_ROOT：$VLLM_CACHE_ROOT/neuron/compile_cache。</translation>
    </message>
    <message>
        <source>The home folder is on NFS, so vLLM-Neuron falls back to /tmp.</source>
        <translation>主目录位于 NFS 上，因此 vLLM-Neuron 改用 /tmp。</translation>
    </message>
    <message>
        <source>The default: ~/.cache/vllm/neuron/compile_cache (VLLM_CACHE_ROOT is not set).</source>
        <translation>默认位置：~/.cache/vllm/neuron/compile_cache（未设置 VLLM_CACHE_ROOT）。</translation>
    </message>
    <message>
        <source>no .compilation_complete marker and no lock: an interrupted compile</source>
        <translation>没有 .compilation_complete 标记也没有锁：编译被中断</translation>
    </message>
    <message>
        <source>no process holds this lock</source>
        <translation>没有进程持有此锁</translation>
    </message>
    <message numerus="yes">
        <source>complete, unused for more than %n days</source>
        <translation>
            <numerusform>已完成，超过 %n 天未使用</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot remove the lock %1: %2 (%3).</source>
        <translation>无法删除锁 %1：%2（%3）。</translation>
    </message>
    <message>
        <source>cannot open the cache folder</source>
        <translation>无法打开缓存文件夹</translation>
    </message>
    <message>
        <source>not a path inside the cache</source>
        <translation>不是缓存内的路径</translation>
    </message>
    <message>
        <source>cannot open its folder</source>
        <translation>无法打开它所在的文件夹</translation>
    </message>
    <message>
        <source>cannot open it</source>
        <translation>无法打开它</translation>
    </message>
    <message>
        <source>cannot lock it</source>
        <translation>无法锁定它</translation>
    </message>
    <message>
        <source>cannot read it</source>
        <translation>无法读取它</translation>
    </message>
    <message>
        <source>cannot unlink it</source>
        <translation>无法删除它</translation>
    </message>
</context>
<context>
    <name>ingot::TorchNeuronDialog</name>
    <message>
        <source>Complete</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Compiling</source>
        <translation>编译中</translation>
    </message>
    <message>
        <source>Stale lock</source>
        <translation>陈旧锁</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>Delete incomplete entries…</source>
        <translation>删除未完成的条目…</translation>
    </message>
    <message>
        <source>Clear stale locks…</source>
        <translation>清除陈旧锁…</translation>
    </message>
    <message>
        <source>Prune unused…</source>
        <translation>清理未使用的…</translation>
    </message>
    <message>
        <source>TorchNeuron / vLLM-Neuron compile cache</source>
        <translation>TorchNeuron / vLLM-Neuron 编译缓存</translation>
    </message>
    <message>
        <source>Local tier: %1</source>
        <translation>本地层：%1</translation>
    </message>
    <message>
        <source>Remote tier: %1</source>
        <translation>远程层：%1</translation>
    </message>
    <message>
        <source>Another folder…</source>
        <translation>其他文件夹…</translation>
    </message>
    <message>
        <source>A TorchNeuron / vLLM-Neuron compile cache</source>
        <translation>TorchNeuron / vLLM-Neuron 编译缓存</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Entries without their .compilation_complete marker and without a lock: an interrupted compile</source>
        <translation>没有 .compilation_complete 标记也没有锁的条目：编译被中断</translation>
    </message>
    <message>
        <source>Lock files no process on this machine holds (a killed compile)</source>
        <translation>本机没有任何进程持有的锁文件（被终止的编译）</translation>
    </message>
    <message>
        <source>Complete entries unused for longer than the prune policy&apos;s days (Settings)</source>
        <translation>超过清理策略天数（设置）未使用的已完成条目</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <translation>文件夹：%1</translation>
    </message>
    <message>
        <source>NEURON_LIBTORCH_REMOTE_CACHE is set: the remote tier, shared by the nodes.</source>
        <translation>已设置 NEURON_LIBTORCH_REMOTE_CACHE：由各节点共享的远程层。</translation>
    </message>
    <message>
        <source>A folder you chose.</source>
        <translation>你选择的文件夹。</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>TorchNeuron or vLLM-Neuron creates it when it first compiles with the cache on.</source>
        <translation>TorchNeuron 或 vLLM-Neuron 在启用缓存后首次编译时会创建它。</translation>
    </message>
    <message>
        <source>the marker names a %1-byte NEFF that is not there</source>
        <translation>标记指明的 %1 字节 NEFF 不存在</translation>
    </message>
    <message>
        <source>lock: %1</source>
        <translation>锁：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n entries, %1: %2 complete, %3 compiling, %4 with a stale lock, %5 incomplete.</source>
        <translation>
            <numerusform>%n 个条目，%1：%2 个已完成，%3 个编译中，%4 个有陈旧锁，%5 个未完成。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other items left alone.</source>
        <translation>
            <numerusform>另有 %n 项保持不动。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2): %3</source>
        <translation>%1（%2）：%3</translation>
    </message>
    <message numerus="yes">
        <source>Remove these %n items?</source>
        <translation>
            <numerusform>删除这 %n 项？</numerusform>
        </translation>
    </message>
    <message>
        <source>Each is looked at again right before it goes; one that changed since is left.</source>
        <translation>每一项在删除前都会再检查一次；期间有变化的会被保留。</translation>
    </message>
    <message>
        <source>Cache: %1</source>
        <translation>缓存：%1</translation>
    </message>
    <message>
        <source>Not on this machine: whether a process holds a lock cannot be seen from here, so every lock counts as held.</source>
        <translation>不在本机：从这里无法看出是否有进程持有锁，因此所有锁都视为被持有。</translation>
    </message>
</context>
<context>
    <name>ingot::TorchTitanJob</name>
    <message>
        <source>The TorchTitan config is over %1 bytes: not read.</source>
        <translation>TorchTitan 配置超过 %1 字节：未读取。</translation>
    </message>
    <message>
        <source>The TorchTitan config sets %1 twice (line %2).</source>
        <translation>TorchTitan 配置两次设置了 %1（第 %2 行）。</translation>
    </message>
    <message>
        <source>The TorchTitan config&apos;s %1 (line %2) is not a whole number of steps.</source>
        <translation>TorchTitan 配置中的 %1（第 %2 行）不是整数步数。</translation>
    </message>
    <message>
        <source>The TorchTitan config&apos;s %1 (line %2) is not a folder name in quotes.</source>
        <translation>TorchTitan 配置中的 %1（第 %2 行）不是带引号的文件夹名称。</translation>
    </message>
    <message>
        <source>The TorchTitan config&apos;s %1 (line %2) is not true or false.</source>
        <translation>TorchTitan 配置中的 %1（第 %2 行）既不是 true 也不是 false。</translation>
    </message>
    <message>
        <source>Cannot read the TorchTitan config %1: %2</source>
        <translation>无法读取 TorchTitan 配置 %1：%2</translation>
    </message>
    <message>
        <source>it is not there</source>
        <translation>它不存在</translation>
    </message>
</context>
<context>
    <name>ingot::Transfer</name>
    <message>
        <source>FAILED: a failed compile is never copied or pushed (clean it, and the next run compiles it again).</source>
        <translation>失败：失败的编译永远不会被复制或推送（清除它，下次运行会重新编译）。</translation>
    </message>
    <message>
        <source>LOCKED: a compile is running on it, or a killed one left a lock; only finished (SUCCESS) entries are copied or pushed.</source>
        <translation>已锁定：有编译正在使用它，或被终止的编译留下了锁；只复制或推送已完成（成功）的条目。</translation>
    </message>
    <message>
        <source>INCOMPLETE: no model.neff; only finished (SUCCESS) entries are copied or pushed.</source>
        <translation>不完整：没有 model.neff；只复制或推送已完成（成功）的条目。</translation>
    </message>
    <message>
        <source>EMPTY: the entry holds no files.</source>
        <translation>空：该条目没有文件。</translation>
    </message>
    <message>
        <source>not a compiled module.</source>
        <translation>不是已编译的模块。</translation>
    </message>
</context>
<context>
    <name>ingot::TransferEngine</name>
    <message>
        <source>Another transfer is writing this entry; it was left alone. Try again when that one ends.</source>
        <translation>另一个传输正在写入此条目；已跳过。请在该传输结束后重试。</translation>
    </message>
    <message>
        <source>%1 could not be reached.</source>
        <translation>无法访问 %1。</translation>
    </message>
    <message>
        <source>Already in %1&apos;s cache; left as it is.</source>
        <translation>已在 %1 的缓存中；保持原样。</translation>
    </message>
    <message>
        <source>No Hub client for this transfer.</source>
        <translation>此传输没有 Hub 客户端。</translation>
    </message>
    <message>
        <source>Ingot does not pull from %1 to %2.</source>
        <translation>Ingot 不支持从 %1 拉取到 %2。</translation>
    </message>
    <message>
        <source>Ingot does not push from %1 to %2.</source>
        <translation>Ingot 不支持从 %1 推送到 %2。</translation>
    </message>
    <message>
        <source>Ingot does not copy from %1 to %2.</source>
        <translation>Ingot 不支持从 %1 复制到 %2。</translation>
    </message>
    <message>
        <source>Not in %1&apos;s cache.</source>
        <translation>不在 %1 的缓存中。</translation>
    </message>
    <message>
        <source>Ingot does not move entries from %1 to %2 this way; go by way of this machine&apos;s cache.</source>
        <translation>Ingot 不以这种方式把条目从 %1 移到 %2；请经由本机的缓存中转。</translation>
    </message>
</context>
<context>
    <name>ingot::TransferItemsModel</name>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>moving</source>
        <translation>传输中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
</context>
<context>
    <name>ingot::TransferQueue</name>
    <message>
        <source>&quot;%1&quot; names no cache entry (neuronxcc-&lt;version&gt;/MODULE_&lt;hash&gt;).</source>
        <translation>“%1”不是缓存条目名（neuronxcc-&lt;version&gt;/MODULE_&lt;hash&gt;）。</translation>
    </message>
    <message>
        <source>Nothing to transfer.</source>
        <translation>没有可传输的内容。</translation>
    </message>
    <message>
        <source>Every entry is already on its way to %1.</source>
        <translation>所有条目都已在传输到 %1 的队列中。</translation>
    </message>
    <message>
        <source>The transfer stopped on an internal error: %1</source>
        <translation>传输因内部错误而停止：%1</translation>
    </message>
    <message>
        <source>The transfer stopped on an internal error.</source>
        <translation>传输因内部错误而停止。</translation>
    </message>
    <message>
        <source>The state of transfer %1 could not be saved in %2: %3 It goes on, but after a restart it may resume from an earlier point.</source>
        <translation>传输 %1 的状态无法保存到 %2：%3 传输会继续，但重启后可能从较早的位置恢复。</translation>
    </message>
    <message>
        <source>There is no transfer %1 in %2.</source>
        <translation>%2 中没有传输 %1。</translation>
    </message>
</context>
<context>
    <name>ingot::TransfersModel</name>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message numerus="yes">
        <source>Pull %n entries from %1 to %2</source>
        <translation>
            <numerusform>从 %1 拉取 %n 个条目到 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Push %n entries from %1 to %2</source>
        <translation>
            <numerusform>从 %1 推送 %n 个条目到 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copy %n entries from %1 to %2</source>
        <translation>
            <numerusform>从 %1 复制 %n 个条目到 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n 个失败</numerusform>
        </translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>Transfer</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message numerus="yes">
        <source>%1 of about %2 · %3/%n entries</source>
        <translation>
            <numerusform>%1 / 约 %2 · %3/%n 个条目</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 · %3/%n entries</source>
        <translation>
            <numerusform>%1 / %2 · %3/%n 个条目</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1/%n entries</source>
        <translation>
            <numerusform>%1/%n 个条目</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::TransfersPage</name>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Stop moving bytes; what arrived is kept and the transfer resumes from there</source>
        <translation>停止传输数据；已传输的部分会保留，之后从该处继续</translation>
    </message>
    <message>
        <source>R&amp;esume</source>
        <translation>继续(&amp;E)</translation>
    </message>
    <message>
        <source>Go on from where it stopped</source>
        <translation>从停止处继续</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Stop this transfer; entries that arrived whole stay</source>
        <translation>停止此传输；已完整传输的条目会保留</translation>
    </message>
    <message>
        <source>&amp;Retry failed</source>
        <translation>重试失败项(&amp;R)</translation>
    </message>
    <message>
        <source>Run the failed entries again</source>
        <translation>重新传输失败的条目</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>移除(&amp;M)</translation>
    </message>
    <message>
        <source>Remove this transfer from the list (it must not be running)</source>
        <translation>从列表中移除此传输（仅限未在运行的传输）</translation>
    </message>
    <message>
        <source>C&amp;lear finished</source>
        <translation>清除已完成(&amp;L)</translation>
    </message>
    <message>
        <source>Remove every finished transfer from the list</source>
        <translation>从列表中移除所有已完成的传输</translation>
    </message>
    <message>
        <source>From %1 to %2 · %3</source>
        <translation>从 %1 到 %2 · %3</translation>
    </message>
    <message>
        <source>%1 done, %2 skipped, %3 failed, %4 to go</source>
        <translation>已完成 %1，跳过 %2，失败 %3，剩余 %4</translation>
    </message>
    <message numerus="yes">
        <source>%n transfers running, %1/s</source>
        <translation>
            <numerusform>%n 个传输正在进行，%1/s</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove the transfer from the list</source>
        <translation>从列表中移除该传输</translation>
    </message>
    <message>
        <source>No transfers yet.

Pull modules from a Hub cache repo (Hub caches: select &quot;Hub only&quot; modules, Pull to local cache), push compiled modules to one (Local cache: Push to the Hub cache repo…), or copy them to a remote host (Local cache: Copy to a remote host…). Every transfer shows here, survives a restart and resumes.</source>
        <translation>暂无传输。

可以从 Hub 缓存仓库拉取模块（Hub 缓存页：选择“仅 Hub”的模块，点击“拉取到本地缓存”），将已编译的模块推送到仓库（本地缓存页：“推送到 Hub 缓存仓库…”），或将其复制到远程主机（本地缓存页：“复制到远程主机…”）。所有传输都显示在这里，重启后仍会保留并继续。</translation>
    </message>
</context>
<context>
    <name>ingot::VersionPickerDialog</name>
    <message>
        <source>Keep which compiler versions?</source>
        <translation>保留哪些编译器版本？</translation>
    </message>
    <message>
        <source>Entries of the versions you leave unchecked are previewed for removal next. Locked entries and files the compiler does not write always stay.</source>
        <translation>未勾选版本的条目将在下一步预览删除。已锁定的条目以及并非由编译器写入的文件始终保留。</translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n entries, %2</source>
        <translation>
            <numerusform>%1 — %n 个条目，%2</numerusform>
        </translation>
    </message>
    <message>
        <source>Preview removal…</source>
        <translation>预览删除…</translation>
    </message>
</context>
<context>
    <name>ingot::cli</name>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>(the location comes from: %1)</source>
        <translation>（位置来源：%1）</translation>
    </message>
    <message>
        <source>Only entries in this state (SUCCESS, FAILED, LOCKED, INCOMPLETE, EMPTY, UNKNOWN).</source>
        <translation>只列出处于此状态的条目（SUCCESS、FAILED、LOCKED、INCOMPLETE、EMPTY、UNKNOWN）。</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Only this compiler-version folder (e.g. neuronxcc-2.15.128.0+56dc5a86, or 2.15).</source>
        <translation>只列出此编译器版本文件夹（例如 neuronxcc-2.15.128.0+56dc5a86，或 2.15）。</translation>
    </message>
    <message>
        <source>VERSION</source>
        <translation>VERSION</translation>
    </message>
    <message>
        <source>Include each entry&apos;s files (with --json).</source>
        <translation>包含每个条目的文件（配合 --json 使用）。</translation>
    </message>
    <message>
        <source>error: unknown state &quot;%1&quot;</source>
        <translation>错误：未知状态“%1”</translation>
    </message>
    <message>
        <source>SIZE</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>LAST USED</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <source>FILES</source>
        <translation>文件数</translation>
    </message>
    <message>
        <source>COMPILER</source>
        <translation>编译器</translation>
    </message>
    <message>
        <source>ENTRY</source>
        <translation>条目</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s); run `ingot-cli cache status` to see them.</source>
        <translation>
            <numerusform>%n 条警告；运行 `ingot-cli cache status` 查看。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cache:      %1</source>
        <translation>缓存：      %1</translation>
    </message>
    <message>
        <source>Why here:   %1</source>
        <translation>位置来源：  %1</translation>
    </message>
    <message>
        <source>Entries:    %1, %2</source>
        <translation>条目：      %1 个，%2</translation>
    </message>
    <message>
        <source>Linked:     %1 in symlinked files (Hugging Face hub cache), stored elsewhere and not counted above</source>
        <translation>链接：      %1 位于符号链接文件中（Hugging Face Hub 缓存），实际存储在别处，未计入上述统计</translation>
    </message>
    <message>
        <source>ENTRIES</source>
        <translation>条目数</translation>
    </message>
    <message>
        <source>unknown items</source>
        <translation>未知项</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>LOCKED</source>
        <translation>已锁定</translation>
    </message>
    <message numerus="yes">
        <source>neuronx-cc is running (%n process(es)): its locks are live.</source>
        <translation>
            <numerusform>neuronx-cc 正在运行（%n 个进程）：其锁仍然有效。</numerusform>
        </translation>
    </message>
    <message>
        <source>Warnings (%1):</source>
        <translation>警告（%1 条）：</translation>
    </message>
    <message>
        <source>%1: nothing to do.</source>
        <translation>%1：无需任何操作。</translation>
    </message>
    <message>
        <source>WHY</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>kept %1: %2</source>
        <translation>保留 %1：%2</translation>
    </message>
    <message>
        <source>Only show what would be removed.</source>
        <translation>仅显示将被删除的内容。</translation>
    </message>
    <message>
        <source>Do not ask for confirmation.</source>
        <translation>不询问确认。</translation>
    </message>
    <message>
        <source>Remove entries unused for more than N days; entries used within N days are always kept (default 30, 0 = no TTL).</source>
        <translation>删除超过 N 天未使用的条目；N 天内用过的条目始终保留（默认 30，0 表示不设 TTL）。</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>While the cache is larger, remove the least recently used entries outside the TTL (default 100GB, 0 = no limit).</source>
        <translation>缓存超过此大小时，删除 TTL 之外最久未使用的条目（默认 100GB，0 表示不限制）。</translation>
    </message>
    <message>
        <source>A compiler-version folder to keep (repeatable).</source>
        <translation>要保留的编译器版本文件夹（可重复指定）。</translation>
    </message>
    <message>
        <source>Only these entries (COMPILER/MODULE keys); default all failed.</source>
        <translation>仅处理这些条目（COMPILER/MODULE 形式的键）；默认处理所有失败条目。</translation>
    </message>
    <message>
        <source>[ENTRY...]</source>
        <translation>[ENTRY...]</translation>
    </message>
    <message>
        <source>error: unexpected argument &quot;%1&quot;</source>
        <translation>错误：意外的参数“%1”</translation>
    </message>
    <message>
        <source>error: --ttl-days takes a whole number of days, not &quot;%1&quot;</source>
        <translation>错误：--ttl-days 需要整数天数，而不是“%1”</translation>
    </message>
    <message>
        <source>error: --max-size takes a size such as 100GB, 500M or 20GiB, not &quot;%1&quot;</source>
        <translation>错误：--max-size 需要 100GB、500M 或 20GiB 这样的大小，而不是“%1”</translation>
    </message>
    <message>
        <source>error: name at least one --keep VERSION (removing every version is `rm -r`, not maintenance)</source>
        <translation>错误：请至少指定一个 --keep VERSION（删除所有版本应使用 `rm -r`，不属于维护操作）</translation>
    </message>
    <message>
        <source>error: no entry %1 in %2</source>
        <translation>错误：%2 中没有条目 %1</translation>
    </message>
    <message>
        <source>warning: no compiler-version folder %1 in %2</source>
        <translation>警告：%2 中没有编译器版本文件夹 %1</translation>
    </message>
    <message>
        <source>refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <source>Dry run: nothing was changed.</source>
        <translation>试运行：未做任何更改。</translation>
    </message>
    <message>
        <source>refused: not a terminal, so nothing is removed without --yes (or use --dry-run).</source>
        <translation>已拒绝：当前不是终端，未指定 --yes 时不会删除任何内容（或使用 --dry-run）。</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>未做任何更改。</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>Done: %1 removed, %2 skipped, %3 failed; %4 freed on disk.</source>
        <translation>完成：已删除 %1 个，跳过 %2 个，失败 %3 个；释放磁盘空间 %4。</translation>
    </message>
    <message>
        <source>The folder to create.</source>
        <translation>要创建的文件夹。</translation>
    </message>
    <message>
        <source>error: name one folder to write the sample cache into</source>
        <translation>错误：请指定一个用于写入示例缓存的文件夹</translation>
    </message>
    <message>
        <source>List the entries (compiler version / module) with state, size and last use</source>
        <translation>列出条目（编译器版本 / 模块）及其状态、大小和上次使用时间</translation>
    </message>
    <message>
        <source>Where the cache is and why, totals per state, per compiler, per age; warnings</source>
        <translation>缓存位置及其来源，按状态、编译器和使用时间的汇总统计；警告</translation>
    </message>
    <message>
        <source>Remove entries unused longer than --ttl-days, then LRU down to --max-size</source>
        <translation>删除超过 --ttl-days 未使用的条目，再按 LRU 清理到 --max-size 以内</translation>
    </message>
    <message>
        <source>Remove FAILED entries so they compile again</source>
        <translation>删除 FAILED 条目，以便重新编译</translation>
    </message>
    <message>
        <source>Remove stale *.lock files (refused while neuronx-cc runs)</source>
        <translation>删除过期的 *.lock 文件（neuronx-cc 运行期间拒绝执行）</translation>
    </message>
    <message>
        <source>Remove compiler-version folders other than --keep ones</source>
        <translation>删除 --keep 指定版本以外的编译器版本文件夹</translation>
    </message>
    <message>
        <source>Write a realistic sample cache (sparse files) into an empty folder</source>
        <translation>在空文件夹中写入一个逼真的示例缓存（稀疏文件）</translation>
    </message>
    <message>
        <source>Usage: ingot-cli GROUP COMMAND [options]

Groups:
</source>
        <translation>用法：ingot-cli GROUP COMMAND [选项]

命令组：
</translation>
    </message>
    <message>
        <source>Print the version</source>
        <translation>显示版本</translation>
    </message>
    <message>
        <source>This help</source>
        <translation>显示此帮助</translation>
    </message>
    <message>
        <source>Usage: ingot-cli %1 COMMAND [options]

Commands:
</source>
        <translation>用法：ingot-cli %1 COMMAND [选项]

命令：
</translation>
    </message>
    <message>
        <source>`ingot-cli %1 COMMAND --help` for more.</source>
        <translation>运行 `ingot-cli %1 COMMAND --help` 查看详细信息。</translation>
    </message>
    <message>
        <source>error: unknown group &quot;%1&quot;

</source>
        <translation>错误：未知命令组“%1”

</translation>
    </message>
    <message>
        <source>error: unknown command &quot;%1 %2&quot;
</source>
        <translation>错误：未知命令“%1 %2”
</translation>
    </message>
    <message>
        <source>The cache folder (default: as the Neuron runtime resolves it: --cache_dir in NEURON_CC_FLAGS, NEURON_COMPILE_CACHE_URL, /var/tmp/neuron-compile-cache).</source>
        <translation>缓存文件夹（默认：按 Neuron 运行时的解析顺序：NEURON_CC_FLAGS 中的 --cache_dir、NEURON_COMPILE_CACHE_URL、/var/tmp/neuron-compile-cache）。</translation>
    </message>
    <message>
        <source>DIR</source>
        <translation>DIR</translation>
    </message>
    <message>
        <source>On this remote host, over SSH (an ssh config alias, or user@host:port).</source>
        <translation>通过 SSH 在此远程主机上执行（ssh config 别名，或 user@host:port）。</translation>
    </message>
    <message>
        <source>HOST</source>
        <translation>HOST</translation>
    </message>
    <message>
        <source>Print JSON instead of a table.</source>
        <translation>输出 JSON 而不是表格。</translation>
    </message>
    <message>
        <source>Consolidate a sharded (tensor/pipeline parallel) checkpoint into safetensors that transformers loads.</source>
        <translation>将分片的（张量并行/流水线并行）检查点合并为 transformers 可加载的 safetensors。</translation>
    </message>
    <message>
        <source>The training output folder, a checkpoint-N folder, or the shards folder.</source>
        <translation>训练输出文件夹、checkpoint-N 文件夹或分片文件夹。</translation>
    </message>
    <message>
        <source>Where to write (default: CHECKPOINT_DIR/consolidated).</source>
        <translation>输出位置（默认：CHECKPOINT_DIR/consolidated）。</translation>
    </message>
    <message>
        <source>safetensors (default) or pytorch.</source>
        <translation>safetensors（默认）或 pytorch。</translation>
    </message>
    <message>
        <source>Split the output above this size (default 5GB).</source>
        <translation>输出超过此大小时拆分（默认 5GB）。</translation>
    </message>
    <message>
        <source>Read the output back and check every tensor against its sources.</source>
        <translation>回读输出，并将每个张量与其来源逐一核对。</translation>
    </message>
    <message>
        <source>Replace an existing output folder.</source>
        <translation>替换已有的输出文件夹。</translation>
    </message>
    <message>
        <source>Check that replicated parameters are equal on every tp rank.</source>
        <translation>检查复制参数在每个 tp rank 上是否一致。</translation>
    </message>
    <message>
        <source>Which checkpoint when there are several (final, or checkpoint-N); default: the newest complete one.</source>
        <translation>存在多个检查点时选择哪一个（final 或 checkpoint-N）；默认：最新的完整检查点。</translation>
    </message>
    <message>
        <source>error: usage: ingot-cli consolidate CHECKPOINT_DIR [OUTPUT_DIR]</source>
        <translation>错误：用法：ingot-cli consolidate CHECKPOINT_DIR [OUTPUT_DIR]</translation>
    </message>
    <message>
        <source>error: unknown format &quot;%1&quot; (safetensors or pytorch)</source>
        <translation>错误：未知格式“%1”（应为 safetensors 或 pytorch）</translation>
    </message>
    <message>
        <source>error: --max-shard-size takes a size such as 5GB or 500MB</source>
        <translation>错误：--max-shard-size 需要 5GB 或 500MB 这样的大小</translation>
    </message>
    <message>
        <source>  %1 %2 (incomplete)</source>
        <translation>  %1 %2（不完整）</translation>
    </message>
    <message>
        <source>[%1/%2] %3 of %4, ETA %5 s  %6</source>
        <translation>[%1/%2] %3 / %4，预计剩余 %5 秒  %6</translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>Stopped; nothing was left behind in %1.</source>
        <translation>已停止；%1 中未留下任何内容。</translation>
    </message>
    <message>
        <source>Nothing was left behind in %1.</source>
        <translation>%1 中未留下任何内容。</translation>
    </message>
    <message>
        <source>Wrote %1 tensors (%2) to %3: %4 — verified against the shards</source>
        <translation>已将 %1 个张量（%2）写入 %3：%4 — 已对照分片验证</translation>
    </message>
    <message>
        <source>Wrote %1 tensors (%2) to %3: %4</source>
        <translation>已将 %1 个张量（%2）写入 %3：%4</translation>
    </message>
    <message>
        <source>CHECKPOINT_DIR [OUTPUT_DIR]   Sharded checkpoint -&gt; safetensors</source>
        <translation>CHECKPOINT_DIR [OUTPUT_DIR]   分片检查点 -&gt; safetensors</translation>
    </message>
    <message>
        <source>The host&apos;s compile cache (default: as the Neuron tools there resolve it).</source>
        <translation>该主机上的编译缓存（默认：按该主机上 Neuron 工具的解析结果）。</translation>
    </message>
    <message>
        <source>neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt; (one or more).</source>
        <translation>neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;（一个或多个）。</translation>
    </message>
    <message>
        <source>--from and --to are both local: one of them must be a host.</source>
        <translation>--from 和 --to 都是 local：其中之一必须是主机。</translation>
    </message>
    <message>
        <source>Copying from one host to another is not supported yet: copy to local, then on.</source>
        <translation>暂不支持在两台主机之间直接复制：请先复制到本地，再复制到目标主机。</translation>
    </message>
    <message>
        <source>name at least one entry (neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;).</source>
        <translation>请至少指定一个条目（neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;）。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a cache entry (neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;).</source>
        <translation>“%1”不是缓存条目（neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;）。</translation>
    </message>
    <message>
        <source>copied %1 (%2 files, %3)</source>
        <translation>已复制 %1（%2 个文件，%3）</translation>
    </message>
    <message>
        <source>skipped %1: %2</source>
        <translation>已跳过 %1：%2</translation>
    </message>
    <message>
        <source>FAILED %1: %2</source>
        <translation>失败 %1：%2</translation>
    </message>
    <message>
        <source>not copied %1: stopped</source>
        <translation>未复制 %1：已停止</translation>
    </message>
    <message>
        <source>Done: %1 copied, %2 skipped, %3 failed; %4 from %5 to %6.</source>
        <translation>完成：已复制 %1 个，跳过 %2 个，失败 %3 个；共 %4，从 %5 到 %6。</translation>
    </message>
    <message>
        <source>orgs:  %1</source>
        <translation>组织： %1</translation>
    </message>
    <message>
        <source>token: %1 (%2)</source>
        <translation>令牌： %1（%2）</translation>
    </message>
    <message>
        <source>unknown role</source>
        <translation>未知角色</translation>
    </message>
    <message>
        <source>hub:   %1</source>
        <translation>Hub：  %1</translation>
    </message>
    <message>
        <source>Hugging Face token (input hidden): </source>
        <translation>Hugging Face 访问令牌（输入不回显）： </translation>
    </message>
    <message>
        <source>Logged in as %1; the token is stored in %2.</source>
        <translation>已登录为 %1；访问令牌保存在 %2。</translation>
    </message>
    <message>
        <source>Logged out: the saved token is gone (HF_TOKEN, if set, still applies).</source>
        <translation>已登出：保存的访问令牌已删除（若设置了 HF_TOKEN，它仍然生效）。</translation>
    </message>
    <message>
        <source>The repo id, org/name.</source>
        <translation>仓库 ID，格式为 org/name。</translation>
    </message>
    <message>
        <source>A folder in the repo (default: the root).</source>
        <translation>仓库中的文件夹（默认：根目录）。</translation>
    </message>
    <message>
        <source>List everything below, not just one level.</source>
        <translation>递归列出所有内容，而不只是一层。</translation>
    </message>
    <message>
        <source>Branch, tag or commit (default main).</source>
        <translation>分支、标签或提交（默认 main）。</translation>
    </message>
    <message>
        <source>error: name a repo (and optionally a path): ingot-cli hub ls REPO [PATH]</source>
        <translation>错误：请指定一个仓库（可选指定路径）：ingot-cli hub ls REPO [PATH]</translation>
    </message>
    <message>
        <source>TYPE</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>PATH</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>The repo name, or org/name (default optimum-neuron-cache in your namespace).</source>
        <translation>仓库名称或 org/name（默认：你的命名空间下的 optimum-neuron-cache）。</translation>
    </message>
    <message>
        <source>Make the repo public (default private).</source>
        <translation>将仓库设为公开（默认私有）。</translation>
    </message>
    <message>
        <source>Neuron cache created on the Hugging Face Hub: %1 [%2].</source>
        <translation>已在 Hugging Face Hub 上创建 Neuron 缓存：%1 [%2]。</translation>
    </message>
    <message>
        <source>Neuron cache name set locally to %1 in %2.</source>
        <translation>已在本地将 Neuron 缓存名称设为 %1（写入 %2）。</translation>
    </message>
    <message>
        <source>The cache repo to use, org/name.</source>
        <translation>要使用的缓存仓库，格式为 org/name。</translation>
    </message>
    <message>
        <source>error: name one repo: ingot-cli cache set ORG/NAME</source>
        <translation>错误：请指定一个仓库：ingot-cli cache set ORG/NAME</translation>
    </message>
    <message>
        <source>error: --%1 takes a whole number</source>
        <translation>错误：--%1 需要一个整数</translation>
    </message>
    <message numerus="yes">
        <source>%n registry entr(ies) of an unknown shape.</source>
        <translation>
            <numerusform>%n 个注册表条目的结构无法识别。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n registry entr(ies) of an unknown shape (--raw shows them).</source>
        <translation>
            <numerusform>%n 个注册表条目的结构无法识别（--raw 可显示）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The model to look up, org/name.</source>
        <translation>要查找的模型，格式为 org/name。</translation>
    </message>
    <message>
        <source>Only this instance type (trn1, trn2, inf2).</source>
        <translation>仅限此实例类型（trn1、trn2、inf2）。</translation>
    </message>
    <message>
        <source>Only this batch size.</source>
        <translation>仅限此批大小。</translation>
    </message>
    <message>
        <source>Only this sequence length.</source>
        <translation>仅限此序列长度。</translation>
    </message>
    <message>
        <source>Only this tensor parallel size.</source>
        <translation>仅限此张量并行度。</translation>
    </message>
    <message>
        <source>Only this dtype (bfloat16, float16).</source>
        <translation>仅限此 dtype（bfloat16、float16）。</translation>
    </message>
    <message>
        <source>The cache repo (default: CUSTOM_CACHE_REPO, the file set by `cache set`, or the public one).</source>
        <translation>缓存仓库（默认：CUSTOM_CACHE_REPO、`cache set` 设置的文件，或公共缓存仓库）。</translation>
    </message>
    <message>
        <source>Also print entries of an unknown shape as stored.</source>
        <translation>同时按原样输出格式未知的条目。</translation>
    </message>
    <message>
        <source>error: name one model: ingot-cli cache lookup ORG/MODEL</source>
        <translation>错误：请指定一个模型：ingot-cli cache lookup ORG/MODEL</translation>
    </message>
    <message>
        <source>Who the token belongs to, its role, and where the token came from</source>
        <translation>访问令牌的所有者、角色及其来源</translation>
    </message>
    <message>
        <source>Save a token (read from standard input) in the keychain or the token file</source>
        <translation>将访问令牌（从标准输入读取）保存到密钥环或令牌文件中</translation>
    </message>
    <message>
        <source>Forget the saved token</source>
        <translation>删除已保存的访问令牌</translation>
    </message>
    <message>
        <source>Create a cache repo on the Hub and use it (-n NAME, --public), as optimum-cli</source>
        <translation>在 Hub 上创建缓存仓库并使用它（-n NAME、--public），与 optimum-cli 相同</translation>
    </message>
    <message>
        <source>Use an existing Hub repo as the cache repo (writes the file optimum-cli reads)</source>
        <translation>将已有的 Hub 仓库用作缓存仓库（写入 optimum-cli 读取的文件）</translation>
    </message>
    <message>
        <source>Registry entries of a model in the Hub cache (--instance_type, --batch_size, ...)</source>
        <translation>Hub 缓存中某个模型的注册表条目（--instance_type、--batch_size 等）</translation>
    </message>
    <message>
        <source>error: %1: %2</source>
        <translation>错误：%1：%2</translation>
    </message>
    <message>
        <source>Processes per node (default 1).</source>
        <translation>每个节点的进程数（默认 1）。</translation>
    </message>
    <message>
        <source>Nodes (default 1; several need remote hosts).</source>
        <translation>节点数（默认 1；多个节点需要远程主机）。</translation>
    </message>
    <message>
        <source>A name for the history.</source>
        <translation>在历史记录中显示的名称。</translation>
    </message>
    <message>
        <source>Where the job writes (default: a fresh folder in the job&apos;s folder).</source>
        <translation>任务的输出位置（默认：任务文件夹中新建的文件夹）。</translation>
    </message>
    <message>
        <source>The Python to run (default: the first found that imports torch).</source>
        <translation>要使用的 Python 解释器（默认：找到的第一个能导入 torch 的解释器）。</translation>
    </message>
    <message>
        <source>Run a training script instead of Ingot&apos;s backend.</source>
        <translation>运行训练脚本，而不是 Ingot 的后端。</translation>
    </message>
    <message>
        <source>Run a module (python -m MODULE) instead of Ingot&apos;s backend.</source>
        <translation>运行模块（python -m MODULE），而不是 Ingot 的后端。</translation>
    </message>
    <message>
        <source>With --script/-m: pass only ARGS, not Ingot&apos;s settings flags.</source>
        <translation>与 --script/-m 一起使用：只传递 ARGS，不传递 Ingot 设置对应的参数。</translation>
    </message>
    <message>
        <source>An extra environment variable (repeatable).</source>
        <translation>额外的环境变量（可重复指定）。</translation>
    </message>
    <message>
        <source>Run on this SSH host instead of this machine.</source>
        <translation>在此 SSH 主机上运行，而不是本机。</translation>
    </message>
    <message>
        <source>A multi-node job: one node per host, the first is the master (--nnodes follows).</source>
        <translation>多节点任务：每台主机一个节点，第一台为主节点（--nnodes 随之确定）。</translation>
    </message>
    <message>
        <source>Validate and print the command; start nothing.</source>
        <translation>校验并打印命令，不启动任何内容。</translation>
    </message>
    <message>
        <source>After --: flags for the backend or the script.</source>
        <translation>-- 之后：传给后端或脚本的参数。</translation>
    </message>
    <message>
        <source>error: --script and -m are exclusive</source>
        <translation>错误：--script 和 -m 不能同时使用</translation>
    </message>
    <message>
        <source>error: --nproc-per-node and --nnodes take a number</source>
        <translation>错误：--nproc-per-node 和 --nnodes 需要一个数字</translation>
    </message>
    <message>
        <source>error: --host and --hosts are exclusive</source>
        <translation>错误：--host 和 --hosts 不能同时使用</translation>
    </message>
    <message>
        <source>error: --hosts takes two hosts or more (one node each); one host: --host</source>
        <translation>错误：--hosts 需要两台或更多主机（每台一个节点）；单台主机请用 --host</translation>
    </message>
    <message>
        <source>error: --nnodes %1 but --hosts names %2 hosts</source>
        <translation>错误：--nnodes 为 %1，但 --hosts 指定了 %2 台主机</translation>
    </message>
    <message>
        <source>error: --env takes KEY=VALUE, not %1</source>
        <translation>错误：--env 需要 KEY=VALUE 格式，而不是 %1</translation>
    </message>
    <message>
        <source>error: --%1: %2</source>
        <translation>错误：--%1：%2</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>WHERE</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>STEP</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>STARTED</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>DURATION</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>LOSS</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>OUTPUT</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>unknown (host unreachable)</source>
        <translation>未知（主机不可达）</translation>
    </message>
    <message>
        <source>No jobs yet (ingot-cli job launch ...).</source>
        <translation>暂无任务（ingot-cli job launch ...）。</translation>
    </message>
    <message>
        <source>error: name one job id (ingot-cli job list)</source>
        <translation>错误：请指定一个任务 ID（见 ingot-cli job list）</translation>
    </message>
    <message>
        <source>Job:        %1 (%2)</source>
        <translation>任务：        %1（%2）</translation>
    </message>
    <message>
        <source>Host:       %1</source>
        <translation>主机：        %1</translation>
    </message>
    <message>
        <source>State:      %1</source>
        <translation>状态：        %1</translation>
    </message>
    <message>
        <source>unknown (%1)</source>
        <translation>未知（%1）</translation>
    </message>
    <message>
        <source>Reason:     %1</source>
        <translation>原因：        %1</translation>
    </message>
    <message>
        <source>Step:       %1 of %2</source>
        <translation>步数：        %1 / %2</translation>
    </message>
    <message>
        <source>Last loss:  %1</source>
        <translation>最近损失：    %1</translation>
    </message>
    <message>
        <source>Elapsed:    %1</source>
        <translation>已用时间：    %1</translation>
    </message>
    <message>
        <source>ETA:        %1</source>
        <translation>预计剩余：    %1</translation>
    </message>
    <message>
        <source>Output:     %1</source>
        <translation>输出：        %1</translation>
    </message>
    <message>
        <source>Job folder: %1</source>
        <translation>任务文件夹：  %1</translation>
    </message>
    <message>
        <source>Processes:  torchrun pid %1, process group %2</source>
        <translation>进程：        torchrun pid %1，进程组 %2</translation>
    </message>
    <message>
        <source>Warning:    %1</source>
        <translation>警告：        %1</translation>
    </message>
    <message>
        <source>error: --rank takes a rank number</source>
        <translation>错误：--rank 需要一个 rank 编号</translation>
    </message>
    <message>
        <source>note: no log of rank %1 yet (ranks: %2)</source>
        <translation>注意：rank %1 尚无日志（现有 rank：%2）</translation>
    </message>
    <message>
        <source>note: %1; the job goes on there: waiting</source>
        <translation>注意：%1；任务仍在那里运行，继续等待</translation>
    </message>
    <message>
        <source>error: job %1 is still %2 after %3 s</source>
        <translation>错误：等待 %3 秒后，任务 %1 仍为“%2”</translation>
    </message>
    <message>
        <source>error: the training backend is missing: %1 holds no ingot_train package (reinstall Ingot, or set INGOT_BACKEND_DIR to a folder that holds it)</source>
        <translation>错误：缺少训练后端：%1 中没有 ingot_train 包（请重新安装 Ingot，或将 INGOT_BACKEND_DIR 设为包含它的文件夹）</translation>
    </message>
    <message>
        <source>The job id (ingot-cli job list).</source>
        <translation>任务 ID（见 ingot-cli job list）。</translation>
    </message>
    <message>
        <source>Start a training job detached (torchrun); prints its id</source>
        <translation>在后台启动训练任务（torchrun），并输出其 ID</translation>
    </message>
    <message>
        <source>Every job in the history: state, step, layout, duration, loss, output</source>
        <translation>历史记录中的所有任务：状态、步数、布局、时长、损失、输出</translation>
    </message>
    <message>
        <source>A job&apos;s state, step of max, last loss, output folder, processes</source>
        <translation>任务的状态、当前步数/最大步数、最近损失、输出文件夹、进程</translation>
    </message>
    <message>
        <source>A rank&apos;s stdout and stderr (--follow: until the job ends)</source>
        <translation>某个 rank 的 stdout 和 stderr（--follow：持续输出直到任务结束）</translation>
    </message>
    <message>
        <source>The rank (default 0).</source>
        <translation>rank 编号（默认 0）。</translation>
    </message>
    <message>
        <source>torchrun&apos;s own output instead of a rank&apos;s.</source>
        <translation>显示 torchrun 自身的输出，而不是某个 rank 的输出。</translation>
    </message>
    <message>
        <source>Keep printing until the job ends.</source>
        <translation>持续输出，直到任务结束。</translation>
    </message>
    <message>
        <source>SIGTERM to the launcher: checkpoint-N, then stopped (again after 10 s, or --kill: kill)</source>
        <translation>向启动器发送 SIGTERM：先保存 checkpoint-N，然后停止（10 秒后再次发送；或用 --kill 强制结束）</translation>
    </message>
    <message>
        <source>Wait until the job has ended.</source>
        <translation>等待任务结束。</translation>
    </message>
    <message>
        <source>Kill every process of the job now (no checkpoint).</source>
        <translation>立即强制结束任务的所有进程（不保存检查点）。</translation>
    </message>
    <message>
        <source>Wait for the end: exit 0 finished, 1 failed, 9 stopped</source>
        <translation>等待任务结束：退出码 0 表示完成，1 表示失败，9 表示已停止</translation>
    </message>
    <message>
        <source>Give up after S seconds (exit 4).</source>
        <translation>S 秒后放弃等待（退出码 4）。</translation>
    </message>
    <message>
        <source>The training backend&apos;s folder (exit 1 when it is missing)</source>
        <translation>训练后端所在的文件夹（缺失时退出码为 1）</translation>
    </message>
    <message>
        <source>The repo revision (default: main).</source>
        <translation>仓库修订版本（默认：main）。</translation>
    </message>
    <message>
        <source>Every entry of this compiler version on the Hub (neuronxcc-2.15.128.0+56dc5a86 or 2.15.128.0+56dc5a86).</source>
        <translation>Hub 上此编译器版本的所有条目（neuronxcc-2.15.128.0+56dc5a86 或 2.15.128.0+56dc5a86）。</translation>
    </message>
    <message>
        <source>Every entry on the Hub.</source>
        <translation>Hub 上的所有条目。</translation>
    </message>
    <message>
        <source>Store files as optimum-neuron does: blobs in the Hugging Face cache (HF_HOME), linked into the compile cache.</source>
        <translation>按 optimum-neuron 的方式存储文件：blob 存放在 Hugging Face 缓存（HF_HOME）中，再链接到编译缓存。</translation>
    </message>
    <message>
        <source>Files downloaded at once (default 4).</source>
        <translation>同时下载的文件数（默认 4）。</translation>
    </message>
    <message>
        <source>Entries to pull: neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;</source>
        <translation>要拉取的条目：neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;</translation>
    </message>
    <message>
        <source>error: name entries, or --compiler VERSION, or --all (one of them).</source>
        <translation>错误：请指定条目、--compiler VERSION 或 --all（三者选一）。</translation>
    </message>
    <message>
        <source>error: &quot;%1&quot; is not a cache entry: use neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;.</source>
        <translation>错误：“%1”不是缓存条目：请使用 neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;。</translation>
    </message>
    <message>
        <source>error: --parallel takes a number from 1 to 32.</source>
        <translation>错误：--parallel 需要 1 到 32 之间的数字。</translation>
    </message>
    <message>
        <source>HF_HUB_OFFLINE is set: Ingot makes no request to the Hub, so nothing can be pulled. Unset it to pull.</source>
        <translation>已设置 HF_HUB_OFFLINE：Ingot 不会向 Hub 发送任何请求，因此无法拉取。如需拉取，请取消设置该变量。</translation>
    </message>
    <message>
        <source>%1 has no entries of compiler %2.</source>
        <translation>%1 中没有编译器 %2 的条目。</translation>
    </message>
    <message>
        <source>NOTE</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>%1 pulled (%2), %3 already in the cache, %4 failed, %5 stopped (run again to resume); %6 s.</source>
        <translation>已拉取 %1 个（%2），%3 个已在缓存中，%4 个失败，%5 个已停止（再次运行可继续）；用时 %6 秒。</translation>
    </message>
    <message>
        <source>%1 pulled (%2), %3 already in the cache, %4 failed; %5 s.</source>
        <translation>已拉取 %1 个（%2），%3 个已在缓存中，%4 个失败；用时 %5 秒。</translation>
    </message>
    <message>
        <source>Nothing to pull: the Hub has no such entries.</source>
        <translation>无需拉取：Hub 上没有这些条目。</translation>
    </message>
    <message>
        <source>Pull entries from the Hub cache repo into the compile cache (ENTRY..., --compiler VERSION or --all)</source>
        <translation>将条目从 Hub 缓存仓库拉取到编译缓存（ENTRY...、--compiler VERSION 或 --all）</translation>
    </message>
    <message>
        <source>error: --dry-run is not available with --host yet: run `ingot-cli cache push --dry-run` on the host.</source>
        <translation>错误：--dry-run 暂不支持与 --host 一起使用：请在该主机上运行 `ingot-cli cache push --dry-run`。</translation>
    </message>
    <message>
        <source>error: &quot;%1&quot; is not a cache entry: use neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;</source>
        <translation>错误：“%1”不是缓存条目：请使用 neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;</translation>
    </message>
    <message>
        <source>HF_HUB_OFFLINE is set: Ingot makes no request to the Hub, so nothing can be pushed. Unset it to push.</source>
        <translation>已设置 HF_HUB_OFFLINE：Ingot 不会向 Hub 发送任何请求，因此无法推送。如需推送，请取消设置该变量。</translation>
    </message>
    <message>
        <source>%1  (%2)</source>
        <translation>%1  (%2)</translation>
    </message>
    <message>
        <source>    %1  %2 bytes</source>
        <translation>    %1  %2 字节</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Would push %n entries (%1, %2) to %3 (dry run: nothing was sent).</source>
        <translation>
            <numerusform>将向 %3 推送 %n 个条目（%1，%2）（试运行：未发送任何内容）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1  %2  %3%4</source>
        <translation>%1  %2  %3%4</translation>
    </message>
    <message>
        <source>Entries to push (neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;); none: every SUCCESS entry not on the Hub.</source>
        <translation>要推送的条目（neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;）；不指定时：推送所有不在 Hub 上的 SUCCESS 条目。</translation>
    </message>
    <message>
        <source>List every entry and file that would go, and the bytes; send nothing.</source>
        <translation>列出将要推送的每个条目和文件及其字节数，不实际发送。</translation>
    </message>
    <message>
        <source>The compile cache folder (default: as the Neuron tools resolve it).</source>
        <translation>编译缓存文件夹（默认：按 Neuron 工具的解析结果）。</translation>
    </message>
    <message>
        <source>error: synchronize takes no entries (it pushes every SUCCESS entry); use cache push ENTRY...</source>
        <translation>错误：synchronize 不接受条目参数（它会推送所有 SUCCESS 条目）；请使用 cache push ENTRY...</translation>
    </message>
    <message>
        <source>Push SUCCESS entries of the compile cache to the Hub cache repo (--dry-run first)</source>
        <translation>将编译缓存中的 SUCCESS 条目推送到 Hub 缓存仓库（建议先用 --dry-run）</translation>
    </message>
    <message>
        <source>Push every SUCCESS entry not on the Hub (optimum-cli&apos;s synchronize; never failed entries or locks)</source>
        <translation>推送所有不在 Hub 上的 SUCCESS 条目（同 optimum-cli 的 synchronize；从不推送失败条目或锁）</translation>
    </message>
    <message>
        <source>error: &quot;%1&quot; is not a host: %2</source>
        <translation>错误：“%1”不是有效的主机：%2</translation>
    </message>
    <message>
        <source>Not a terminal, so Ingot does not ask. Check the key and add it with `ssh %1` (or `ingot-cli remote hosts` on a terminal), then run this again.</source>
        <translation>当前不是终端，Ingot 不会询问。请用 `ssh %1` 核对并添加该密钥（或在终端上运行 `ingot-cli remote hosts`），然后重新运行此命令。</translation>
    </message>
    <message>
        <source>The authenticity of host %1 is not known yet.
%2 key fingerprint: %3
It would be added to %4.</source>
        <translation>尚无法确认主机 %1 的真实性。
%2 密钥指纹：%3
该密钥将被添加到 %4。</translation>
    </message>
    <message>
        <source>Trust this key and connect?</source>
        <translation>信任此密钥并连接？</translation>
    </message>
    <message>
        <source>Not connected: the key was not trusted.</source>
        <translation>未连接：未信任该密钥。</translation>
    </message>
    <message>
        <source>FROM</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>RESOLVES TO</source>
        <translation>解析为</translation>
    </message>
    <message>
        <source>VIA</source>
        <translation>经由</translation>
    </message>
    <message>
        <source>CONNECTED</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>ssh config</source>
        <translation>ssh config</translation>
    </message>
    <message>
        <source>added</source>
        <translation>手动添加</translation>
    </message>
    <message>
        <source>(%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>No hosts: none in %1 and none added (ingot-cli remote add HOST).</source>
        <translation>没有主机：%1 中没有，也未手动添加（ingot-cli remote add HOST）。</translation>
    </message>
    <message>
        <source>An ssh config alias, or user@host:port.</source>
        <translation>ssh config 别名，或 user@host:port。</translation>
    </message>
    <message>
        <source>error: name one host</source>
        <translation>错误：请指定一台主机</translation>
    </message>
    <message>
        <source>Added %1.</source>
        <translation>已添加 %1。</translation>
    </message>
    <message>
        <source>error: %1 is not a host added in Ingot (hosts of the ssh config are edited there)</source>
        <translation>错误：%1 不是在 Ingot 中添加的主机（ssh config 中的主机请在该文件中编辑）</translation>
    </message>
    <message>
        <source>Removed %1.</source>
        <translation>已移除 %1。</translation>
    </message>
    <message>
        <source>Connected to %1.</source>
        <translation>已连接到 %1。</translation>
    </message>
    <message>
        <source>The hosts of the ssh config and those added, what each resolves to (ssh -G)</source>
        <translation>ssh config 中的主机和手动添加的主机，以及各自的解析结果（ssh -G）</translation>
    </message>
    <message>
        <source>Add a host by name (alias, user@host:port)</source>
        <translation>按名称添加主机（别名、user@host:port）</translation>
    </message>
    <message>
        <source>Remove a host added in Ingot</source>
        <translation>移除在 Ingot 中添加的主机</translation>
    </message>
    <message>
        <source>Connect (first contact: check and trust the host key on a terminal)</source>
        <translation>连接（首次连接时：在终端上核对并信任主机密钥）</translation>
    </message>
    <message>
        <source>%1: failed: %2</source>
        <translation>%1：失败：%2</translation>
    </message>
    <message>
        <source>error: the cache folder %1 is missing, not a folder, or not writable.</source>
        <translation>错误：缓存文件夹 %1 不存在、不是文件夹或不可写。</translation>
    </message>
    <message>
        <source>HF_HUB_OFFLINE is set: Ingot makes no request to the Hub. Unset it to move entries to or from the Hub.</source>
        <translation>已设置 HF_HUB_OFFLINE：Ingot 不会向 Hub 发送任何请求。如需与 Hub 之间传输条目，请取消设置该变量。</translation>
    </message>
    <message>
        <source>%1 done (%2), %3 skipped, %4 failed, %5 stopped (run again to resume).</source>
        <translation>完成 %1 个（%2），跳过 %3 个，失败 %4 个，已停止 %5 个（再次运行可继续）。</translation>
    </message>
    <message>
        <source>%1 done (%2), %3 skipped, %4 failed.</source>
        <translation>完成 %1 个（%2），跳过 %3 个，失败 %4 个。</translation>
    </message>
    <message>
        <source>The Neuron compile cache; Hub cache repos (create, set, lookup)</source>
        <translation>Neuron 编译缓存；Hub 缓存仓库（create、set、lookup）</translation>
    </message>
    <message>
        <source>Common options: --cache-dir DIR, --json, --dry-run, --yes.</source>
        <translation>常用选项：--cache-dir DIR、--json、--dry-run、--yes。</translation>
    </message>
    <message>
        <source>The Hugging Face Hub: whoami, ls, login, logout</source>
        <translation>Hugging Face Hub：whoami、ls、login、logout</translation>
    </message>
    <message>
        <source>HF_ENDPOINT, HF_TOKEN, HF_HOME, HF_TOKEN_PATH and HF_HUB_OFFLINE are honoured. --json everywhere.</source>
        <translation>支持 HF_ENDPOINT、HF_TOKEN、HF_HOME、HF_TOKEN_PATH 和 HF_HUB_OFFLINE 环境变量。所有命令均支持 --json。</translation>
    </message>
    <message>
        <source>Jobs live in ~/.local/share/Ingot/ingot/jobs/&lt;id&gt;. job wait: exit 0 finished, 1 failed, 9 stopped.</source>
        <translation>任务保存在 ~/.local/share/Ingot/ingot/jobs/&lt;id&gt;。job wait：退出码 0 表示完成，1 表示失败，9 表示已停止。</translation>
    </message>
    <message>
        <source>Remote hosts over SSH: hosts, add, remove, connect</source>
        <translation>通过 SSH 访问的远程主机：hosts、add、remove、connect</translation>
    </message>
    <message>
        <source>Hosts come from your ssh config (-F file: Settings) and those added. --host HOST on cache commands and job launch works there.</source>
        <translation>主机来自你的 ssh config（-F 文件：见设置）以及手动添加的主机。cache 命令和 job launch 可通过 --host HOST 在这些主机上执行。</translation>
    </message>
    <message>
        <source>Slurm %1, cluster %2, on %3</source>
        <translation>Slurm %1，集群 %2，位于 %3</translation>
    </message>
    <message>
        <source>PARTITION</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>TIME LIMIT</source>
        <translation>时间限制</translation>
    </message>
    <message>
        <source>NODES</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>IDLE</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>MIXED</source>
        <translation>部分占用</translation>
    </message>
    <message>
        <source>ALLOC</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>DRAINED</source>
        <translation>已排空</translation>
    </message>
    <message>
        <source>DOWN</source>
        <translation>宕机</translation>
    </message>
    <message>
        <source>CPUS</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>NODE</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>MEMORY</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>GRES</source>
        <translation>GRES</translation>
    </message>
    <message>
        <source>FEATURES</source>
        <translation>特性</translation>
    </message>
    <message>
        <source>REASON</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>No jobs of yours in the queue.</source>
        <translation>队列中没有你的作业。</translation>
    </message>
    <message>
        <source>JOB</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>TIME</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>LIMIT</source>
        <translation>限制</translation>
    </message>
    <message>
        <source>error: name at most one host (or local)</source>
        <translation>错误：最多指定一个主机（或 local）</translation>
    </message>
    <message>
        <source>No Slurm on %1: sinfo and sbatch are not on the PATH there.</source>
        <translation>%1 上没有 Slurm：那里的 PATH 中没有 sinfo 和 sbatch。</translation>
    </message>
    <message>
        <source>A Slurm cluster&apos;s partitions, nodes by state and your queue</source>
        <translation>Slurm 集群的分区、按状态的节点和你的队列</translation>
    </message>
    <message>
        <source>A login node (ssh config alias or user@host:port), or local (this machine; SLURM_CONF honoured). Default: local.</source>
        <translation>登录节点（ssh 配置别名或 user@host:port），或 local（本机；遵循 SLURM_CONF）。默认：local。</translation>
    </message>
    <message>
        <source>[HOST|local]</source>
        <translation>[HOST|local]</translation>
    </message>
    <message>
        <source>The slurm.conf to use there (exported as SLURM_CONF).</source>
        <translation>在那里使用的 slurm.conf（导出为 SLURM_CONF）。</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>FILE</translation>
    </message>
    <message>
        <source>warning: cannot read %1</source>
        <translation>警告：无法读取 %1</translation>
    </message>
    <message>
        <source>Slurm clusters: info</source>
        <translation>Slurm 集群：info</translation>
    </message>
    <message>
        <source>HOST: a login node over SSH; local: this machine&apos;s Slurm clients (SLURM_CONF honoured).</source>
        <translation>HOST：通过 SSH 的登录节点；local：本机的 Slurm 客户端（遵循 SLURM_CONF）。</translation>
    </message>
    <message>
        <source>Compile cache: none (--no_cache)</source>
        <translation>编译缓存：无（--no_cache）</translation>
    </message>
    <message>
        <source>Compile cache: %1</source>
        <translation>编译缓存：%1</translation>
    </message>
    <message>
        <source>error: job %1 names no output folder (its script chose one: consolidate it with ingot-cli consolidate DIR)</source>
        <translation>错误：任务 %1 没有指定输出文件夹（由其脚本自行选择：请用 ingot-cli consolidate DIR 合并）</translation>
    </message>
    <message>
        <source>A job&apos;s newest checkpoint -&gt; safetensors, where the job ran</source>
        <translation>将任务最新的检查点合并为 safetensors（在任务运行的机器上）</translation>
    </message>
    <message>
        <source>Where to write there (default: CHECKPOINT/consolidated).</source>
        <translation>在该机器上写入的位置（默认：CHECKPOINT/consolidated）。</translation>
    </message>
    <message>
        <source>Submit to the Slurm cluster of this login node (an SSH host, or local).</source>
        <translation>提交到此登录节点的 Slurm 集群（SSH 主机，或 local）。</translation>
    </message>
    <message>
        <source>With --slurm: nodes to allocate (as --nnodes).</source>
        <translation>与 --slurm 一起使用：要分配的节点数（同 --nnodes）。</translation>
    </message>
    <message>
        <source>With --slurm: the partition (default: the cluster&apos;s).</source>
        <translation>与 --slurm 一起使用：分区（默认：集群的默认分区）。</translation>
    </message>
    <message>
        <source>With --slurm: the time limit (minutes, H:MM:SS, D-HH:MM:SS).</source>
        <translation>与 --slurm 一起使用：时间限制（分钟、H:MM:SS、D-HH:MM:SS）。</translation>
    </message>
    <message>
        <source>With --slurm: the account to charge.</source>
        <translation>与 --slurm 一起使用：计费账户。</translation>
    </message>
    <message>
        <source>With --slurm: the quality of service.</source>
        <translation>与 --slurm 一起使用：服务质量（QoS）。</translation>
    </message>
    <message>
        <source>With --slurm: share nodes (default: whole nodes, --exclusive).</source>
        <translation>与 --slurm 一起使用：共享节点（默认：独占整个节点，--exclusive）。</translation>
    </message>
    <message>
        <source>With --slurm: an extra #SBATCH line (repeatable).</source>
        <translation>与 --slurm 一起使用：额外的 #SBATCH 行（可重复）。</translation>
    </message>
    <message>
        <source>With --slurm: the slurm.conf to use there (SLURM_CONF).</source>
        <translation>与 --slurm 一起使用：在那里使用的 slurm.conf（SLURM_CONF）。</translation>
    </message>
    <message>
        <source>error: --%1 goes with --slurm</source>
        <translation>错误：--%1 需要与 --slurm 一起使用</translation>
    </message>
    <message>
        <source>error: --slurm names the login node; --host and --hosts are for jobs without a scheduler</source>
        <translation>错误：--slurm 指定登录节点；--host 和 --hosts 用于没有调度器的任务</translation>
    </message>
    <message>
        <source>error: --nodes takes a number</source>
        <translation>错误：--nodes 需要一个数字</translation>
    </message>
    <message>
        <source>Slurm:      %1</source>
        <translation>Slurm：     %1</translation>
    </message>
    <message>
        <source>QUEUED</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>error: name one entry, as neuronxcc-&lt;version&gt;/MODULE_&lt;hash&gt;+&lt;flags hash&gt;</source>
        <translation>错误：请指定一个条目，形如 neuronxcc-&lt;版本&gt;/MODULE_&lt;哈希&gt;+&lt;标志哈希&gt;</translation>
    </message>
    <message>
        <source>error: &quot;%1&quot; is not an entry of a compile cache (neuronxcc-&lt;version&gt;/MODULE_&lt;hash&gt;+&lt;flags hash&gt;)</source>
        <translation>错误：“%1”不是编译缓存的条目（neuronxcc-&lt;版本&gt;/MODULE_&lt;哈希&gt;+&lt;标志哈希&gt;）</translation>
    </message>
    <message>
        <source>error: %1 holds no entry %2%3</source>
        <translation>错误：%1 中没有条目 %2%3</translation>
    </message>
    <message>
        <source>Cache:         %1</source>
        <translation>缓存：        %1</translation>
    </message>
    <message numerus="yes">
        <source>State:         %1, %2 in %n file(s)</source>
        <translation>
            <numerusform>状态：        %1，%2，共 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Flags:         %1</source>
        <translation>标志：        %1</translation>
    </message>
    <message>
        <source>(none: the compiler defaults)</source>
        <translation>（无：使用编译器默认值）</translation>
    </message>
    <message>
        <source>Flags:         unknown (%1)</source>
        <translation>标志：        未知（%1）</translation>
    </message>
    <message>
        <source>HLO:           cannot be read (%1)</source>
        <translation>HLO：         无法读取（%1）</translation>
    </message>
    <message>
        <source>error: --other %1: %2</source>
        <translation>错误：--other %1：%2</translation>
    </message>
    <message>
        <source>--cache-dir</source>
        <translation>--cache-dir</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>处理方法：%1</translation>
    </message>
    <message>
        <source>neuronxcc-&lt;version&gt;/MODULE_&lt;hash&gt;+&lt;flags hash&gt; (present or not)</source>
        <translation>neuronxcc-&lt;版本&gt;/MODULE_&lt;哈希&gt;+&lt;标志哈希&gt;（存在与否均可）</translation>
    </message>
    <message>
        <source>One entry: state, files, compile flags and the HLO behind it (shapes, collectives)</source>
        <translation>单个条目：状态、文件、编译标志及其背后的 HLO（形状、集合通信）</translation>
    </message>
    <message>
        <source>Why a job compiles ENTRY: hit, blocked, other flags, other compiler, other cache or new graph</source>
        <translation>作业为什么编译 ENTRY：命中、被阻塞、其他标志、其他编译器、其他缓存或新计算图</translation>
    </message>
    <message>
        <source>CACHE</source>
        <translation>缓存</translation>
    </message>
    <message>
        <source>Also look in every cache Ingot knows: the folders added in the app, this machine&apos;s cache, the Hub cache repos.</source>
        <translation>同时在 Ingot 知道的所有缓存中查找：应用中添加的文件夹、本机缓存、Hub 缓存仓库。</translation>
    </message>
    <message>
        <source>First compile every graph with the Neuron SDK&apos;s neuron_parallel_compile (the same command, in JOB/precompile; with --slurm a Slurm job of its own); the training starts once it succeeded.</source>
        <translation>先用 Neuron SDK 的 neuron_parallel_compile 编译每个计算图（相同的命令，在 JOB/precompile 中；配合 --slurm 时为单独的 Slurm 作业）；成功后才开始训练。</translation>
    </message>
    <message>
        <source>With --precompile: neuron_parallel_compile --num_parallel N.</source>
        <translation>配合 --precompile：neuron_parallel_compile --num_parallel N。</translation>
    </message>
    <message>
        <source>error: --precompile-parallel goes with --precompile</source>
        <translation>错误：--precompile-parallel 需与 --precompile 一起使用</translation>
    </message>
    <message>
        <source>error: --precompile-parallel takes a number of parallel compiles (1 to 4096)</source>
        <translation>错误：--precompile-parallel 需要并行编译数（1 到 4096）</translation>
    </message>
    <message>
        <source>Adapter %1 -&gt; %2</source>
        <translation>适配器 %1 -&gt; %2</translation>
    </message>
    <message>
        <source>LoRA adapters: also write the base model with the default adapter merged, in OUTPUT_DIR/merged (needs --base-model).</source>
        <translation>LoRA 适配器：同时把合并了默认适配器的基础模型写到 OUTPUT_DIR/merged（需要 --base-model）。</translation>
    </message>
    <message>
        <source>The base model&apos;s folder (Hugging Face safetensors), for --merge-adapters.</source>
        <translation>基础模型的文件夹（Hugging Face safetensors），用于 --merge-adapters。</translation>
    </message>
    <message>
        <source>error: --merge-adapters: this checkpoint holds a model, not LoRA adapters</source>
        <translation>错误：--merge-adapters：此检查点包含的是模型，不是 LoRA 适配器</translation>
    </message>
    <message>
        <source>error: --merge-adapters needs --base-model DIR (the base model&apos;s folder)</source>
        <translation>错误：--merge-adapters 需要 --base-model DIR（基础模型的文件夹）</translation>
    </message>
    <message>
        <source>ADAPTER_DIR BASE_MODEL_DIR [OUTPUT_DIR]   LoRA adapter merged into its base model</source>
        <translation>ADAPTER_DIR BASE_MODEL_DIR [OUTPUT_DIR]   把 LoRA 适配器合并进其基础模型</translation>
    </message>
    <message>
        <source>Merge a PEFT LoRA adapter (adapter_model.safetensors, adapter_config.json) into its base model (a Hugging Face safetensors folder): W + lora_alpha/r · B·A.</source>
        <translation>把 PEFT LoRA 适配器（adapter_model.safetensors、adapter_config.json）合并进其基础模型（Hugging Face safetensors 文件夹）：W + lora_alpha/r · B·A。</translation>
    </message>
    <message>
        <source>The adapter folder (as consolidate writes it).</source>
        <translation>适配器文件夹（consolidate 写出的那种）。</translation>
    </message>
    <message>
        <source>The base model&apos;s folder.</source>
        <translation>基础模型的文件夹。</translation>
    </message>
    <message>
        <source>Where to write (default: ADAPTER_DIR/merged).</source>
        <translation>写到哪里（默认：ADAPTER_DIR/merged）。</translation>
    </message>
    <message>
        <source>error: usage: ingot-cli merge-adapter ADAPTER_DIR BASE_MODEL_DIR [OUTPUT_DIR]</source>
        <translation>错误：用法：ingot-cli merge-adapter ADAPTER_DIR BASE_MODEL_DIR [OUTPUT_DIR]</translation>
    </message>
    <message>
        <source>error: --%1 takes a whole number of at least 1</source>
        <translation>错误：--%1 需要一个至少为 1 的整数</translation>
    </message>
    <message>
        <source>Re-sharding to tp=%1 pp=%2</source>
        <translation>正在重新分片为 tp=%1 pp=%2</translation>
    </message>
    <message>
        <source>note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message>
        <source>Resume the backend with --tensor_parallel_size %1 --pipeline_parallel_size %2%3 --resume_from_checkpoint %4 (and the same global batch)</source>
        <translation>使用 --tensor_parallel_size %1 --pipeline_parallel_size %2%3 --resume_from_checkpoint %4 恢复后端（并保持相同的全局批大小）</translation>
    </message>
    <message>
        <source>CHECKPOINT OUTPUT_DIR --tensor-parallel-size T --pipeline-parallel-size P   Checkpoint for another layout</source>
        <translation>CHECKPOINT OUTPUT_DIR --tensor-parallel-size T --pipeline-parallel-size P   另一布局的检查点</translation>
    </message>
    <message>
        <source>Write a sharded checkpoint (or a Hugging Face model folder) as the checkpoint of another tensor/pipeline-parallel layout, which the bundled training backend resumes from with --resume_from_checkpoint. The backend&apos;s optimizer state is carried over.</source>
        <translation>将分片检查点（或 Hugging Face 模型文件夹）写为另一种张量/流水线并行布局的检查点，内置训练后端可通过 --resume_from_checkpoint 从中恢复。后端的优化器状态会一并迁移。</translation>
    </message>
    <message>
        <source>The training output folder, a checkpoint-N folder, the shards folder, or a model folder.</source>
        <translation>训练输出文件夹、checkpoint-N 文件夹、分片文件夹或模型文件夹。</translation>
    </message>
    <message>
        <source>Where to write the new checkpoint.</source>
        <translation>新检查点的写入位置。</translation>
    </message>
    <message>
        <source>The new tensor parallel size (default 1).</source>
        <translation>新的张量并行大小（默认 1）。</translation>
    </message>
    <message>
        <source>The new pipeline parallel size (default 1).</source>
        <translation>新的流水线并行大小（默认 1）。</translation>
    </message>
    <message>
        <source>Key/value head replication (the bundled backend takes 1).</source>
        <translation>键/值头复制倍数（内置后端只接受 1）。</translation>
    </message>
    <message>
        <source>Keep embed_tokens and lm_head whole on every tp rank.</source>
        <translation>在每个 tp rank 上保留完整的 embed_tokens 和 lm_head。</translation>
    </message>
    <message>
        <source>Leave the optimizer state out (the resumed run starts AdamW afresh).</source>
        <translation>不写出优化器状态（恢复的运行将重新开始 AdamW）。</translation>
    </message>
    <message>
        <source>Read the new shards back and check them against the source.</source>
        <translation>读回新分片并与源检查点核对。</translation>
    </message>
    <message>
        <source>error: usage: ingot-cli reshard CHECKPOINT OUTPUT_DIR --tensor-parallel-size T --pipeline-parallel-size P</source>
        <translation>错误：用法：ingot-cli reshard CHECKPOINT OUTPUT_DIR --tensor-parallel-size T --pipeline-parallel-size P</translation>
    </message>
    <message>
        <source>TorchNeuron / vLLM-Neuron cache: %1%2 (ingot-cli torchneuron status)</source>
        <translation>TorchNeuron / vLLM-Neuron 缓存：%1%2（ingot-cli torchneuron status）</translation>
    </message>
    <message>
        <source>off; </source>
        <translation>已关闭；</translation>
    </message>
    <message>
        <source>, remote tier %1</source>
        <translation>，远程层 %1</translation>
    </message>
    <message numerus="yes">
        <source>Also:       %n TorchNeuron / vLLM-Neuron cache keys (another format): ingot-cli torchneuron list --cache-dir %1</source>
        <translation>
            <numerusform>另有：     %n 个 TorchNeuron / vLLM-Neuron 缓存键（另一种格式）：ingot-cli torchneuron list --cache-dir %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Where the entries are: local, a host (alias, host, user@host:port), or an S3 cache.</source>
        <translation>条目所在位置：local、主机（别名、主机名、user@host:port）或 S3 缓存。</translation>
    </message>
    <message>
        <source>local|HOST|s3://BUCKET/PREFIX</source>
        <translation>local|主机|s3://存储桶/前缀</translation>
    </message>
    <message>
        <source>Where they go: local, a host, or an S3 cache.</source>
        <translation>目标位置：local、主机或 S3 缓存。</translation>
    </message>
    <message>
        <source>--from and --to are both S3 caches: copy to local, then on.</source>
        <translation>--from 和 --to 都是 S3 缓存：请先复制到本机，再继续复制。</translation>
    </message>
    <message>
        <source>--from and --to are required (local, a host, or s3://BUCKET/PREFIX).</source>
        <translation>必须提供 --from 和 --to（local、主机或 s3://存储桶/前缀）。</translation>
    </message>
    <message>
        <source>Copy entries between this machine&apos;s cache, a host&apos;s over SSH and an S3 cache (verified, never overwriting)</source>
        <translation>在本机缓存、经 SSH 的主机缓存和 S3 缓存之间复制条目（经过校验，从不覆盖）</translation>
    </message>
    <message>
        <source>error: --hub-cache-layout links files into this machine&apos;s Hugging Face cache; an S3 cache holds plain objects.</source>
        <translation>错误：--hub-cache-layout 会把文件链接到本机的 Hugging Face 缓存；S3 缓存只保存普通对象。</translation>
    </message>
    <message>
        <source>error: --dry-run is not available for an S3 cache yet: `ingot-cli cache list --cache-dir %1` shows its entries.</source>
        <translation>错误：S3 缓存暂不支持 --dry-run：`ingot-cli cache list --cache-dir %1` 可显示其条目。</translation>
    </message>
    <message>
        <source>error: name the entries to push from %1 (`ingot-cli cache list --cache-dir %1` shows them).</source>
        <translation>错误：请指明要从 %1 推送的条目（`ingot-cli cache list --cache-dir %1` 可显示它们）。</translation>
    </message>
    <message>
        <source>The remote tier (NEURON_LIBTORCH_REMOTE_CACHE) instead of the local one.</source>
        <translation>使用远程层（NEURON_LIBTORCH_REMOTE_CACHE）而不是本地层。</translation>
    </message>
    <message>
        <source>Remove complete entries unused for more than N days (default 30).</source>
        <translation>删除超过 N 天未使用的已完成条目（默认 30）。</translation>
    </message>
    <message>
        <source>error: NEURON_LIBTORCH_REMOTE_CACHE is not set: there is no remote tier.</source>
        <translation>错误：未设置 NEURON_LIBTORCH_REMOTE_CACHE：没有远程层。</translation>
    </message>
    <message>
        <source>error: with --host, name the cache folder there with --cache-dir (e.g. ~/.cache/vllm/neuron/compile_cache).</source>
        <translation>错误：使用 --host 时，请用 --cache-dir 指明那里的缓存文件夹（例如 ~/.cache/vllm/neuron/compile_cache）。</translation>
    </message>
    <message>
        <source>KEY</source>
        <translation>键</translation>
    </message>
    <message>
        <source>the marker names a %1-byte NEFF that is not there</source>
        <translation>标记指明的 %1 字节 NEFF 不存在</translation>
    </message>
    <message>
        <source>lock not checkable here: taken as held</source>
        <translation>此处无法检查锁：视为被持有</translation>
    </message>
    <message>
        <source>Cache:       %1</source>
        <translation>缓存：      %1</translation>
    </message>
    <message>
        <source>Local tier:  %1 (%2)</source>
        <translation>本地层：    %1（%2）</translation>
    </message>
    <message>
        <source>Remote tier: %1</source>
        <translation>远程层：%1</translation>
    </message>
    <message>
        <source>none (NEURON_LIBTORCH_REMOTE_CACHE is not set)</source>
        <translation>无（未设置 NEURON_LIBTORCH_REMOTE_CACHE）</translation>
    </message>
    <message>
        <source>Caching:     off (NEURON_LIBTORCH_DISABLE_COMPILE_CACHE=1)</source>
        <translation>缓存：      已关闭（NEURON_LIBTORCH_DISABLE_COMPILE_CACHE=1）</translation>
    </message>
    <message>
        <source>Entries:     %1, %2</source>
        <translation>条目：      %1，%2</translation>
    </message>
    <message>
        <source>  complete %1, compiling %2, stale lock %3, incomplete %4</source>
        <translation>  已完成 %1，编译中 %2，陈旧锁 %3，未完成 %4</translation>
    </message>
    <message>
        <source>Not cache entries (left alone): %1</source>
        <translation>非缓存条目（保持不动）：%1</translation>
    </message>
    <message>
        <source>refused: whether a lock in %1 is held can only be seen on the machine that holds it; run ingot-cli there.</source>
        <translation>已拒绝：%1 中的锁是否被持有，只有在持有它的机器上才能看到；请在那台机器上运行 ingot-cli。</translation>
    </message>
    <message>
        <source>%1  %2  %3</source>
        <translation>%1  %2  %3</translation>
    </message>
    <message>
        <source>Nothing to remove.</source>
        <translation>没有需要删除的内容。</translation>
    </message>
    <message numerus="yes">
        <source>Remove %n items (%1)?</source>
        <translation>
            <numerusform>删除 %n 项（%1）？</numerusform>
        </translation>
    </message>
    <message>
        <source>Removed %1, left %2 that changed since the preview, freed %3.</source>
        <translation>已删除 %1 项，保留了 %2 项（预览后有变化），释放了 %3。</translation>
    </message>
    <message>
        <source>The TorchNeuron / vLLM-Neuron compile cache: list, status, clean-incomplete, clear-locks, prune</source>
        <translation>TorchNeuron / vLLM-Neuron 编译缓存：list、status、clean-incomplete、clear-locks、prune</translation>
    </message>
    <message>
        <source>The local tier by default ($VLLM_CACHE_ROOT/neuron/compile_cache); --remote: NEURON_LIBTORCH_REMOTE_CACHE; --cache-dir DIR or s3://BUCKET/PREFIX; --host HOST with --cache-dir.</source>
        <translation>默认为本地层（$VLLM_CACHE_ROOT/neuron/compile_cache）；--remote：NEURON_LIBTORCH_REMOTE_CACHE；--cache-dir 目录 或 s3://存储桶/前缀；--host 主机 需配合 --cache-dir。</translation>
    </message>
    <message>
        <source>Every cache key with its state, size and last use</source>
        <translation>每个缓存键及其状态、大小和上次使用时间</translation>
    </message>
    <message>
        <source>Where the tiers are (and why), and the entries by state</source>
        <translation>各层的位置（及原因），以及按状态统计的条目</translation>
    </message>
    <message>
        <source>Preview, then remove entries without their marker and without a lock</source>
        <translation>预览后删除既没有标记也没有锁的条目</translation>
    </message>
    <message>
        <source>Preview, then remove lock files no process holds (this machine&apos;s caches)</source>
        <translation>预览后删除没有进程持有的锁文件（仅限本机缓存）</translation>
    </message>
    <message>
        <source>Preview, then remove complete entries unused for more than --ttl-days</source>
        <translation>预览后删除超过 --ttl-days 天未使用的已完成条目</translation>
    </message>
    <message>
        <source>Only locks older than AGE (90m, 2h, 7d). Needed for an S3 cache, where a compile on any machine may hold a lock: older ones are taken as left by a compile that ended.</source>
        <translation>只清除早于 AGE（90m、2h、7d）的锁。S3 缓存需要此项，因为任何机器上的编译都可能持有锁：更早的锁被视为已结束的编译所遗留。</translation>
    </message>
    <message>
        <source>AGE</source>
        <translation>AGE</translation>
    </message>
    <message>
        <source>error: --older-than takes an age such as 90m, 2h or 7d, not &quot;%1&quot;</source>
        <translation>错误：--older-than 需要 90m、2h 或 7d 这样的时长，而不是“%1”</translation>
    </message>
    <message>
        <source>Another cache to look in: a folder, host:/path, s3://bucket/prefix or hub:org/name (repeatable).</source>
        <translation>要查找的另一个缓存：文件夹、host:/path、s3://bucket/prefix 或 hub:org/name（可重复）。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n entries, %2 freed (cache %3 -&gt; %4).</source>
        <translation>
            <numerusform>%1：%n 个条目，释放 %2（缓存 %3 -&gt; %4）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove %n entries (%1)?</source>
        <translation>
            <numerusform>删除 %n 个条目（%1）？</numerusform>
        </translation>
    </message>
    <message>
        <source>How many module folders (default %1).</source>
        <translation>模块文件夹的数量（默认 %1）。</translation>
    </message>
    <message>
        <source>Random seed (default %1).</source>
        <translation>随机种子（默认 %1）。</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n entries (%1, %2 apparent size) to %3</source>
        <translation>
            <numerusform>已将 %n 个条目（%1，表观大小 %2）写入 %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Cache entry:   %1</source>
        <translation>缓存条目：     %1</translation>
    </message>
    <message>
        <source>DP×TP×PP</source>
        <translation>DP×TP×PP</translation>
    </message>
    <message numerus="yes">
        <source>Layout:     %1 (dp×tp×pp), %n process(es)</source>
        <translation>
            <numerusform>布局：       %1（dp×tp×pp），%n 个进程</numerusform>
        </translation>
    </message>
    <message>
        <source>skipped %1</source>
        <translation>已跳过 %1</translation>
    </message>
    <message numerus="yes">
        <source>Pushed %1 of %n entries to %2; %3 skipped, %4 failed.</source>
        <translation>
            <numerusform>已将 %n 个条目中的 %1 个推送到 %2；跳过 %3 个，失败 %4 个。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>[%1/%n entries] %2 of %3, %4/s, ETA %5 s</source>
        <translation>
            <numerusform>[%1/%n 个条目] %3 中的 %2，%4/s，预计剩余 %5 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing was written:</source>
        <translation>未写入任何内容：</translation>
    </message>
    <message>
        <source>Merged adapter %1 into %2 -&gt; %3</source>
        <translation>已将适配器 %1 合并进 %2 -&gt; %3</translation>
    </message>
    <message>
        <source>List the repo&apos;s cache entries marked against the local cache (--cache-dir): on both, on the Hub only, or local only.</source>
        <translation>列出该仓库的缓存条目，并对照本地缓存（--cache-dir）标注：两边都有、仅在 Hub 上，或仅在本地。</translation>
    </message>
    <message>
        <source>Hub and local</source>
        <translation>Hub 和本地</translation>
    </message>
    <message>
        <source>Hub only</source>
        <translation>仅 Hub</translation>
    </message>
    <message>
        <source>Local only</source>
        <translation>仅本地</translation>
    </message>
    <message>
        <source>List a repo&apos;s files: ingot-cli hub ls REPO [PATH] [-R] [--revision REV] [--marks]</source>
        <translation>列出仓库的文件：ingot-cli hub ls REPO [PATH] [-R] [--revision REV] [--marks]</translation>
    </message>
    <message>
        <source>Start from the launcher&apos;s preset NAME (ingot-cli job presets); the options and ARGS given change it.</source>
        <translation>以启动器中名为 NAME 的预设为起点（见 ingot-cli job presets）；给出的选项和 ARGS 会修改它。</translation>
    </message>
    <message>
        <source>No presets yet (the launcher&apos;s Save as preset…).</source>
        <translation>暂无预设（在启动器中使用“另存为预设…”）。</translation>
    </message>
    <message>
        <source>error: --preset: %1</source>
        <translation>错误：--preset：%1</translation>
    </message>
    <message>
        <source>Resumed from: %1 (%2)</source>
        <translation>恢复自：%1（%2）</translation>
    </message>
    <message>
        <source>Resumed from: %1 (no longer in the history)</source>
        <translation>恢复自：%1（已不在历史记录中）</translation>
    </message>
    <message>
        <source>The launcher&apos;s presets (job launch --preset NAME)</source>
        <translation>启动器中的预设（job launch --preset NAME）</translation>
    </message>
    <message>
        <source>refused: %1 (without --outputs, the job&apos;s folder alone is removed)</source>
        <translation>已拒绝：%1（未指定 --outputs 时，只删除任务文件夹）</translation>
    </message>
    <message>
        <source>Also removes the outputs %1 (%2).</source>
        <translation>同时删除输出 %1（%2）。</translation>
    </message>
    <message>
        <source>Keeps the outputs %1 (%2); --outputs removes them too.</source>
        <translation>保留输出 %1（%2）；使用 --outputs 会一并删除。</translation>
    </message>
    <message>
        <source>The outputs are kept: %1</source>
        <translation>输出将保留：%1</translation>
    </message>
    <message>
        <source>The outputs are inside the job&apos;s folder and go with it.</source>
        <translation>输出位于任务文件夹内，将一并删除。</translation>
    </message>
    <message>
        <source>Remove job %1?</source>
        <translation>删除任务 %1？</translation>
    </message>
    <message>
        <source>error: job %1 was not removed: %2</source>
        <translation>错误：任务 %1 未被删除：%2</translation>
    </message>
    <message>
        <source>Removed job %1.</source>
        <translation>已删除任务 %1。</translation>
    </message>
    <message>
        <source>No graph of this job in %1 yet.</source>
        <translation>%1 中尚无此任务的计算图。</translation>
    </message>
    <message>
        <source>%1 — in %2</source>
        <translation>%1 — 位于 %2</translation>
    </message>
    <message>
        <source>CHANGED</source>
        <translation>上次修改</translation>
    </message>
    <message>
        <source>no neuron-monitor data: job %1 is not running (NeuronCores are read while it runs)</source>
        <translation>没有 neuron-monitor 数据：任务 %1 未在运行（NeuronCore 在任务运行时读取）</translation>
    </message>
    <message>
        <source>no neuron-monitor data: %1</source>
        <translation>没有 neuron-monitor 数据：%1</translation>
    </message>
    <message>
        <source>  NeuronCore %1: %2 %</source>
        <translation>  NeuronCore %1：%2 %</translation>
    </message>
    <message>
        <source>Remove an ended job&apos;s folder (previewed; --outputs: its outputs too)</source>
        <translation>删除已结束任务的文件夹（先预览；--outputs：同时删除其输出）</translation>
    </message>
    <message>
        <source>Also remove the job&apos;s output folder (never one that holds more).</source>
        <translation>同时删除任务的输出文件夹（若其中还有其他内容则绝不删除）。</translation>
    </message>
    <message>
        <source>Only say what would be removed.</source>
        <translation>仅说明将删除哪些内容。</translation>
    </message>
    <message>
        <source>Launch an ended job&apos;s settings again from its newest checkpoint; prints the new id</source>
        <translation>以已结束任务的设置从其最新检查点再次启动；输出新的 ID</translation>
    </message>
    <message>
        <source>A job&apos;s compile activity: each graph, why it compiled (hit, new, other flags, ...)</source>
        <translation>任务的编译活动：每个计算图及其编译原因（命中、新计算图、其他标志……）</translation>
    </message>
    <message>
        <source>Also each graph&apos;s evidence and what to do.</source>
        <translation>同时显示每个计算图的依据和处理建议。</translation>
    </message>
    <message>
        <source>A running job&apos;s NeuronCores now: utilization, memory, errors (neuron-monitor)</source>
        <translation>运行中任务的 NeuronCore 当前状况：利用率、内存、错误（neuron-monitor）</translation>
    </message>
    <message>
        <source>cancel requested</source>
        <translation>已请求取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>some failed</source>
        <translation>部分失败</translation>
    </message>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>No transfers: the Ingot window&apos;s pulls, pushes and copies are listed here.</source>
        <translation>暂无传输：Ingot 窗口中的拉取、推送和复制会列在这里。</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>TO</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The transfer&apos;s id, as `transfers list` shows it.</source>
        <translation>传输的 ID，即 `transfers list` 所显示的 ID。</translation>
    </message>
    <message>
        <source>error: name one transfer: ingot-cli transfers cancel ID</source>
        <translation>错误：请指定一个传输：ingot-cli transfers cancel ID</translation>
    </message>
    <message>
        <source>Transfer %1 is over (%2): nothing to cancel.</source>
        <translation>传输 %1 已结束（%2）：无可取消。</translation>
    </message>
    <message>
        <source>There is no transfer %1 (ingot-cli transfers list shows them).</source>
        <translation>没有传输 %1（ingot-cli transfers list 可列出所有传输）。</translation>
    </message>
    <message>
        <source>Cancel requested for transfer %1: a running Ingot window stops it at once; otherwise Ingot cancels it when it next starts, before it runs again.</source>
        <translation>已请求取消传输 %1：若 Ingot 窗口正在运行，会立即停止它；否则 Ingot 会在下次启动时、在其再次运行之前取消它。</translation>
    </message>
    <message>
        <source>The Ingot window&apos;s transfers: queued, running, paused, failed, done</source>
        <translation>Ingot 窗口中的传输：排队中、进行中、已暂停、失败、已完成</translation>
    </message>
    <message>
        <source>Cancel a transfer of the Ingot window&apos;s queue, as its Cancel button does</source>
        <translation>取消 Ingot 窗口队列中的某个传输，效果与其“取消”按钮相同</translation>
    </message>
    <message>
        <source>Training jobs: launch, list, status, logs, stop, wait, resume, remove, graphs, neuroncores</source>
        <translation>训练任务：launch、list、status、logs、stop、wait、resume、remove、graphs、neuroncores</translation>
    </message>
    <message>
        <source>The Ingot window&apos;s transfer queue: list, cancel</source>
        <translation>Ingot 窗口的传输队列：list、cancel</translation>
    </message>
    <message>
        <source>Transfers live in ~/.local/share/Ingot/ingot/transfers.</source>
        <translation>传输记录保存在 ~/.local/share/Ingot/ingot/transfers 中。</translation>
    </message>
    <message>
        <source>TorchNeuron NEFF cache: %1 (ingot-cli neff status)</source>
        <translation>TorchNeuron NEFF 缓存：%1（ingot-cli neff status）</translation>
    </message>
    <message>
        <source>Checkpoint %1 in %2: %3, %4, %5</source>
        <translation>检查点 %1（位于 %2）：%3，%4，%5</translation>
    </message>
    <message>
        <source>The backend&apos;s training engine: native (PyTorch on TorchNeuron, Neuron 2.30 and later), xla (PyTorch/XLA, Neuron 2.29 and earlier) or auto (default: what the job&apos;s Python has).</source>
        <translation>后端的训练引擎：native（TorchNeuron 上的 PyTorch，Neuron 2.30 及更高版本）、xla（PyTorch/XLA，Neuron 2.29 及更早版本）或 auto（默认：取决于作业的 Python 环境）。</translation>
    </message>
    <message>
        <source>Fully sharded data parallel over the data-parallel ranks (ZeRO-3; native engine only).</source>
        <translation>在各数据并行 rank 之间进行完全分片数据并行（ZeRO-3；仅限原生引擎）。</translation>
    </message>
    <message>
        <source>torch.compile the model (native engine only).</source>
        <translation>使用 torch.compile 编译模型（仅限原生引擎）。</translation>
    </message>
    <message>
        <source>warning: --%1: %2</source>
        <translation>警告：--%1：%2</translation>
    </message>
    <message>
        <source>note: --%1: %2</source>
        <translation>注意：--%1：%2</translation>
    </message>
    <message>
        <source>error: the NEFF cache is a folder on this machine; %1 is not one.</source>
        <translation>错误：NEFF 缓存必须是本机上的文件夹；%1 不是。</translation>
    </message>
    <message>
        <source>error: --ttl-days takes a whole number of days, 0 or more.</source>
        <translation>错误：--ttl-days 需要一个大于或等于 0 的整数天数。</translation>
    </message>
    <message>
        <source>NEFF files unused for more than N days (default %1).</source>
        <translation>超过 N 天未使用的 NEFF 文件（默认 %1）。</translation>
    </message>
    <message>
        <source>NEFF cache: %1</source>
        <translation>NEFF 缓存：%1</translation>
    </message>
    <message>
        <source>NEFF files: %1, %2</source>
        <translation>NEFF 文件：%1，%2</translation>
    </message>
    <message numerus="yes">
        <source>Unused for more than %n days: </source>
        <translation>
            <numerusform>超过 %n 天未使用： </numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2 (ingot-cli neff prune)</source>
        <translation>%1，%2（ingot-cli neff prune）</translation>
    </message>
    <message>
        <source>Left alone: %1 other files (%2), %3 links</source>
        <translation>未处理：%1 个其他文件（%2），%3 个链接</translation>
    </message>
    <message numerus="yes">
        <source>Not read:   %n folders (too deep, or past the entries Ingot reads)</source>
        <translation>
            <numerusform>未读取：%n 个文件夹（层级过深，或超出 Ingot 读取的条目数）</numerusform>
        </translation>
    </message>
    <message>
        <source>NEFF</source>
        <translation>NEFF</translation>
    </message>
    <message>
        <source>%1  %2  last used %3</source>
        <translation>%1  %2  上次使用于 %3</translation>
    </message>
    <message numerus="yes">
        <source>Remove %n NEFF files (%1)?</source>
        <translation>
            <numerusform>删除 %n 个 NEFF 文件（%1）？</numerusform>
        </translation>
    </message>
    <message>
        <source>Removed %1, left %2 that were used, locked or changed since the preview, freed %3.</source>
        <translation>已删除 %1，保留 %2（自预览后被使用、锁定或更改），释放 %3。</translation>
    </message>
    <message>
        <source>TorchNeuron&apos;s NEFF cache (native PyTorch on Neuron): status, list, prune</source>
        <translation>TorchNeuron 的 NEFF 缓存（Neuron 上的原生 PyTorch）：status、list、prune</translation>
    </message>
    <message>
        <source>TORCH_NEURONX_NEFF_CACHE_DIR, else /tmp/neff_cache, as the Neuron documentation gives it; --cache-dir DIR for another folder on this machine.</source>
        <translation>TORCH_NEURONX_NEFF_CACHE_DIR，否则为 Neuron 文档给出的 /tmp/neff_cache；使用 --cache-dir DIR 指定本机上的其他文件夹。</translation>
    </message>
    <message>
        <source>Where the NEFF cache is (and why), its NEFF files and how many are unused</source>
        <translation>NEFF 缓存的位置（及原因）、其中的 NEFF 文件以及未使用的文件数量</translation>
    </message>
    <message>
        <source>Every NEFF file, largest first, with its last use</source>
        <translation>列出所有 NEFF 文件（从大到小）及其上次使用时间</translation>
    </message>
    <message>
        <source>Preview, then remove NEFF files unused for more than --ttl-days</source>
        <translation>预览后删除超过 --ttl-days 天未使用的 NEFF 文件</translation>
    </message>
    <message>
        <source>Only entries matching FIELD OP VALUE (repeatable, all must hold): size&gt;1GB, used&gt;30d, state=failed, compiler=2.15, name=MODULE_12*.</source>
        <translation>只列出匹配 字段 运算符 值 的条目（可重复，须全部满足）：size&gt;1GB、used&gt;30d、state=failed、compiler=2.15、name=MODULE_12*。</translation>
    </message>
    <message>
        <source>EXPR</source>
        <translation>EXPR</translation>
    </message>
    <message>
        <source>Order by name, size, used, state or compiler, with :asc or :desc (default: compiler, then name).</source>
        <translation>按 name、size、used、state 或 compiler 排序，可加 :asc 或 :desc（默认：先按编译器，再按名称）。</translation>
    </message>
    <message>
        <source>table (default), json or csv.</source>
        <translation>table（默认）、json 或 csv。</translation>
    </message>
    <message>
        <source>FORMAT</source>
        <translation>FORMAT</translation>
    </message>
    <message>
        <source>error: --filter: %1</source>
        <translation>错误：--filter：%1</translation>
    </message>
    <message>
        <source>error: --format takes table, json or csv, not &quot;%1&quot;</source>
        <translation>错误：--format 接受 table、json 或 csv，而不是“%1”</translation>
    </message>
    <message>
        <source>Remove the entries matching FIELD OP VALUE (repeatable, all must hold), as cache list --filter selects them: size&gt;1GB, used&gt;30d, state=failed, compiler=2.15, name=MODULE_12*.</source>
        <translation>删除匹配 字段 运算符 值 的条目（可重复，须全部满足），与 cache list --filter 选中的相同：size&gt;1GB、used&gt;30d、state=failed、compiler=2.15、name=MODULE_12*。</translation>
    </message>
    <message>
        <source>error: name what goes with --filter (e.g. size&gt;1GB, used&gt;30d, state=failed); removing every entry is `rm -r`, not maintenance</source>
        <translation>错误：请用 --filter 指明要删除什么（例如 size&gt;1GB、used&gt;30d、state=failed）；删除所有条目应使用 `rm -r`，不属于维护</translation>
    </message>
    <message>
        <source>Remove the entries --filter selects (previewed; never locked ones)</source>
        <translation>删除 --filter 选中的条目（先预览；绝不删除已锁定的条目）</translation>
    </message>
    <message>
        <source>A Slurm job: ask its Python on a compute node of the partition (srun --immediate), not on the login node, before the engine is chosen.</source>
        <translation>Slurm 作业：在选择引擎之前，在该分区的计算节点上（srun --immediate）而不是登录节点上询问其 Python。</translation>
    </message>
    <message>
        <source>error: --ask-node is for a Slurm job (--slurm)</source>
        <translation>错误：--ask-node 只用于 Slurm 作业（--slurm）</translation>
    </message>
    <message>
        <source>note: --ask-node: %1</source>
        <translation>注意：--ask-node：%1</translation>
    </message>
    <message>
        <source>A DCP checkpoint: also write its optimizer state (optimizer.safetensors, optimizer_param_groups.json).</source>
        <translation>DCP 检查点：同时写出其优化器状态（optimizer.safetensors、optimizer_param_groups.json）。</translation>
    </message>
    <message numerus="yes">
        <source>With the optimizer state: %n tensor(s) (%1) to optimizer.safetensors</source>
        <translation>
            <numerusform>含优化器状态：%n 个张量（%1）写入 optimizer.safetensors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n value(s) to optimizer_param_groups.json</source>
        <translation>
            <numerusform>，%n 个值写入 optimizer_param_groups.json</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2, %3</source>
        <translation>%1：%2，%3</translation>
    </message>
    <message>
        <source>SETTING</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Settings (* differs):</source>
        <translation>设置（* 表示不同）：</translation>
    </message>
    <message>
        <source>RUN</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>STEPS</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>LAST LOSS</source>
        <translation>最近损失</translation>
    </message>
    <message>
        <source>MIN LOSS</source>
        <translation>最低损失</translation>
    </message>
    <message>
        <source>MEAN TOKENS/S</source>
        <translation>平均 TOKENS/S</translation>
    </message>
    <message>
        <source>Curves:</source>
        <translation>曲线：</translation>
    </message>
    <message>
        <source>Graphs:</source>
        <translation>图：</translation>
    </message>
    <message>
        <source>GRAPH</source>
        <translation>图</translation>
    </message>
    <message>
        <source>error: name two or more job ids (ingot-cli job list)</source>
        <translation>错误：请指定两个或更多作业 ID（ingot-cli job list）</translation>
    </message>
    <message>
        <source>error: job %1: %2</source>
        <translation>错误：作业 %1：%2</translation>
    </message>
    <message>
        <source>Runs side by side: their settings (differences marked), curves and graphs with why each compiled</source>
        <translation>并排比较运行：设置（标出差异）、曲线，以及各图及其编译原因</translation>
    </message>
    <message>
        <source>Two or more job ids (ingot-cli job list); the first is the one the others are compared with.</source>
        <translation>两个或更多作业 ID（ingot-cli job list）；其他作业均与第一个进行比较。</translation>
    </message>
    <message>
        <source>error: name one run folder</source>
        <translation>错误：请指定一个运行文件夹</translation>
    </message>
    <message>
        <source>Refreshed job %1 (imported before) from %2</source>
        <translation>已从 %2 刷新作业 %1（之前已导入）</translation>
    </message>
    <message>
        <source>Imported job %1 from %2</source>
        <translation>已从 %2 导入作业 %1</translation>
    </message>
    <message>
        <source>  kind: %1</source>
        <translation>  类型：%1</translation>
    </message>
    <message>
        <source>  steps: none recorded</source>
        <translation>  步数：未记录</translation>
    </message>
    <message>
        <source>  steps: %1 points, the last at step %2</source>
        <translation>  步数：%1 个点，最后一个位于第 %2 步</translation>
    </message>
    <message>
        <source>  from: %1</source>
        <translation>  来源：%1</translation>
    </message>
    <message>
        <source>no file of points</source>
        <translation>没有数据点文件</translation>
    </message>
    <message>
        <source>  checkpoints: none</source>
        <translation>  检查点：无</translation>
    </message>
    <message>
        <source>  checkpoint: %1</source>
        <translation>  检查点：%1</translation>
    </message>
    <message>
        <source>  note: %1</source>
        <translation>  备注：%1</translation>
    </message>
    <message>
        <source>It is read-only in the history: ingot-cli job status %1.</source>
        <translation>它在历史记录中为只读：ingot-cli job status %1。</translation>
    </message>
    <message>
        <source>Adopt a run folder Ingot did not launch (trainer_state.json, TorchTitan logs, TensorBoard events) as a read-only job; prints its id</source>
        <translation>将并非由 Ingot 启动的运行文件夹（trainer_state.json、TorchTitan 日志、TensorBoard 事件）导入为只读作业；输出其 ID</translation>
    </message>
    <message>
        <source>The run&apos;s folder (imported again: refreshed).</source>
        <translation>运行的文件夹（再次导入即为刷新）。</translation>
    </message>
    <message>
        <source>error: unknown format &quot;%1&quot; (csv or json)</source>
        <translation>错误：未知格式 &quot;%1&quot;（csv 或 json）</translation>
    </message>
    <message>
        <source>job %1 has logged no metrics yet</source>
        <translation>作业 %1 尚未记录任何指标</translation>
    </message>
    <message>
        <source>A run&apos;s metrics (step, time, loss, learning rate, throughput, grad norm, ...) as CSV or JSON</source>
        <translation>运行的指标（步数、时间、损失、学习率、吞吐量、梯度范数等），格式为 CSV 或 JSON</translation>
    </message>
    <message>
        <source>csv (the default: RFC 4180, a header row) or json.</source>
        <translation>csv（默认：RFC 4180，带表头行）或 json。</translation>
    </message>
    <message>
        <source>list, set NAME or rm NAME</source>
        <translation>list、set NAME 或 rm NAME</translation>
    </message>
    <message>
        <source>set: the least recently used entries go while the cache is larger (100GB, 500GiB).</source>
        <translation>set：缓存超过该大小时，删除最久未使用的条目（100GB、500GiB）。</translation>
    </message>
    <message>
        <source>set: keep the N newest compiler versions; the others&apos; entries go.</source>
        <translation>set：保留最新的 N 个编译器版本；删除其他版本的条目。</translation>
    </message>
    <message>
        <source>set: entries unused for more than D days go.</source>
        <translation>set：删除超过 D 天未使用的条目。</translation>
    </message>
    <message>
        <source>set: failed entries go (the next run compiles them again).</source>
        <translation>set：删除失败的条目（下次运行会重新编译）。</translation>
    </message>
    <message>
        <source>set: stale lock files go (never while neuronx-cc runs there).</source>
        <translation>set：删除过期的锁文件（neuronx-cc 在该处运行时绝不删除）。</translation>
    </message>
    <message>
        <source>set: where compiles cannot be seen (S3), only locks older than AGE (2h, 1d).</source>
        <translation>set：在无法观察编译情况的位置（S3），只删除早于 AGE 的锁（2h、1d）。</translation>
    </message>
    <message>
        <source>error: --%1 takes a whole number from 0 to %2</source>
        <translation>错误：--%1 需要 0 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>error: --lock-age takes an age such as 90m, 2h or 7d</source>
        <translation>错误：--lock-age 需要时长，例如 90m、2h 或 7d</translation>
    </message>
    <message>
        <source>error: a policy removes something: give --max-size, --keep-versions, --unused-days, --failed or --locks</source>
        <translation>错误：策略必须删除某些内容：请指定 --max-size、--keep-versions、--unused-days、--failed 或 --locks</translation>
    </message>
    <message>
        <source>Policy %1: %2.</source>
        <translation>策略 %1：%2。</translation>
    </message>
    <message>
        <source>No cache policy yet: ingot-cli cache policy set NAME --max-size 200GB --unused-days 30 --failed</source>
        <translation>尚无缓存策略：ingot-cli cache policy set NAME --max-size 200GB --unused-days 30 --failed</translation>
    </message>
    <message>
        <source>error: a policy&apos;s name is letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos; (64 at most), not &quot;%1&quot;</source>
        <translation>错误：策略名称只能包含字母、数字、&apos;-&apos;、&apos;_&apos; 和 &apos;.&apos;（最多 64 个字符），&quot;%1&quot; 不符合要求</translation>
    </message>
    <message>
        <source>error: no policy %1</source>
        <translation>错误：没有策略 %1</translation>
    </message>
    <message>
        <source>Removed policy %1.</source>
        <translation>已删除策略 %1。</translation>
    </message>
    <message>
        <source>error: cache policy list | set NAME [options] | rm NAME</source>
        <translation>错误：cache policy list | set NAME [options] | rm NAME</translation>
    </message>
    <message>
        <source>The policy to apply (cache policy list).</source>
        <translation>要应用的策略（cache policy list）。</translation>
    </message>
    <message>
        <source>error: name the policy: --policy NAME (cache policy list)</source>
        <translation>错误：请指定策略：--policy NAME（cache policy list）</translation>
    </message>
    <message>
        <source>error: no policy %1 (cache policy list)</source>
        <translation>错误：没有策略 %1（cache policy list）</translation>
    </message>
    <message>
        <source>Named cache policies: list, set NAME (--max-size, --keep-versions, --unused-days, --failed, --locks), rm NAME</source>
        <translation>命名缓存策略：list、set NAME（--max-size、--keep-versions、--unused-days、--failed、--locks）、rm NAME</translation>
    </message>
    <message>
        <source>Check against this S3 cache instead of the Hub (this machine&apos;s AWS keys).</source>
        <translation>改为对照此 S3 缓存（而非 Hub）进行检查（使用本机的 AWS 密钥）。</translation>
    </message>
    <message>
        <source>Entries to check: neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt; (default: every SUCCESS entry)</source>
        <translation>要检查的条目：neuronxcc-&lt;version&gt;/MODULE_&lt;...&gt;（默认：所有 SUCCESS 条目）</translation>
    </message>
    <message>
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message>
        <source>DIFFERS</source>
        <translation>DIFFERS</translation>
    </message>
    <message>
        <source>MISSING there</source>
        <translation>MISSING（远端）</translation>
    </message>
    <message>
        <source>cannot be read here: %1</source>
        <translation>无法在本地读取：%1</translation>
    </message>
    <message>
        <source>%1 differs: %2</source>
        <translation>%1 不同：%2</translation>
    </message>
    <message>
        <source>%1 is only here</source>
        <translation>%1 仅在本地存在</translation>
    </message>
    <message>
        <source>%1 is only there</source>
        <translation>%1 仅在远端存在</translation>
    </message>
    <message>
        <source>error: --s3: %1</source>
        <translation>错误：--s3：%1</translation>
    </message>
    <message>
        <source>HF_HUB_OFFLINE is set: Ingot makes no request to the Hub, so nothing can be verified. Unset it to verify.</source>
        <translation>已设置 HF_HUB_OFFLINE：Ingot 不会向 Hub 发出任何请求，因此无法验证。取消设置该变量即可验证。</translation>
    </message>
    <message numerus="yes">
        <source>%n entries checked against %1</source>
        <translation>
            <numerusform>已对照 %1 检查 %n 个条目</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>: %n differ or are missing.</source>
        <translation>
            <numerusform>：%n 个不同或缺失。</numerusform>
        </translation>
    </message>
    <message>
        <source>: all the same.</source>
        <translation>：全部相同。</translation>
    </message>
    <message>
        <source>Check local entries against the Hub cache repo or an S3 cache (--s3): the same files, sizes and checksums (nothing downloaded)</source>
        <translation>对照 Hub 缓存仓库或 S3 缓存（--s3）检查本地条目：文件、大小和校验和是否一致（不下载任何内容）</translation>
    </message>
    <message>
        <source>Report the job stalled when its step has not advanced for DURATION (90s, 10m, 2h) while it runs (default: 10 x its median step time, at least 5 min).</source>
        <translation>当作业运行中其步骤在 DURATION（90s、10m、2h）内没有推进时报告停滞（默认：其步骤时间中位数的 10 倍，至少 5 分钟）。</translation>
    </message>
    <message>
        <source>error: --stall-after takes a duration: 90s, 10m, 2h</source>
        <translation>错误：--stall-after 需要一个时长：90s、10m、2h</translation>
    </message>
    <message>
        <source>Stalled:    %1</source>
        <translation>停滞：      %1</translation>
    </message>
    <message>
        <source>Stacks:     ingot-cli job stacks %1</source>
        <translation>堆栈：      ingot-cli job stacks %1</translation>
    </message>
    <message>
        <source>Stacks:     not available (the program did not register faulthandler)</source>
        <translation>堆栈：      不可用（该程序未注册 faulthandler）</translation>
    </message>
    <message>
        <source>error: --wait takes seconds (up to 600)</source>
        <translation>错误：--wait 需要秒数（最多 600）</translation>
    </message>
    <message>
        <source>== rank %1 ==</source>
        <translation>== rank %1 ==</translation>
    </message>
    <message>
        <source>(no stack written in %1 s)</source>
        <translation>（%1 秒内未写出堆栈）</translation>
    </message>
    <message>
        <source>A running job&apos;s Python stacks, per rank (the backend&apos;s faulthandler on SIGUSR2)</source>
        <translation>运行中作业的 Python 堆栈，按 rank 列出（后端的 faulthandler，SIGUSR2）</translation>
    </message>
    <message>
        <source>How long to wait for the ranks&apos; dumps (default 10).</source>
        <translation>等待各 rank 转储的时长（默认 10）。</translation>
    </message>
    <message>
        <source>Read only this place (repeatable): a folder, torchneuron:PATH, host:NAME, s3://BUCKET/PREFIX or hub:ORG/NAME (default: every place Ingot knows).</source>
        <translation>只读取此位置（可重复）：文件夹、torchneuron:PATH、host:NAME、s3://BUCKET/PREFIX 或 hub:ORG/NAME（默认：Ingot 已知的所有位置）。</translation>
    </message>
    <message>
        <source>Seconds one place may take (default: 60).</source>
        <translation>每个位置允许的最长秒数（默认：60）。</translation>
    </message>
    <message>
        <source>folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>TorchNeuron</source>
        <translation>TorchNeuron</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>S3</source>
        <translation>S3</translation>
    </message>
    <message>
        <source>Hub repo</source>
        <translation>Hub 仓库</translation>
    </message>
    <message>
        <source>PLACE</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>COMPILERS</source>
        <translation>编译器</translation>
    </message>
    <message>
        <source>STATUS</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>error: --place: %1</source>
        <translation>错误：--place：%1</translation>
    </message>
    <message>
        <source>error: --timeout takes whole seconds, from 1 to 86400.</source>
        <translation>错误：--timeout 需为 1 到 86400 之间的整数秒。</translation>
    </message>
    <message>
        <source>Ingot knows no cache yet: open one (cache list --cache-dir DIR), add a host (remote add) or a Hub repo.</source>
        <translation>Ingot 尚不知道任何缓存：请打开一个缓存（cache list --cache-dir DIR）、添加主机（remote add）或 Hub 仓库。</translation>
    </message>
    <message numerus="yes">
        <source>%n place(s) could not be read (see STATUS).</source>
        <translation>
            <numerusform>%n 个位置无法读取（见“状态”列）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Every cache Ingot knows (this machine&apos;s, folders added, TorchNeuron&apos;s, hosts, S3, Hub repos): size, entries by state, compilers, last used, reachable or why not</source>
        <translation>Ingot 已知的所有缓存（本机的、添加的文件夹、TorchNeuron 的、主机、S3、Hub 仓库）：大小、按状态分类的条目、编译器、上次使用时间、是否可访问及原因</translation>
    </message>
    <message>
        <source>On every place Ingot knows (cache fleet): this machine&apos;s caches, the hosts in the list, the S3 caches opened before; Hub repos and TorchNeuron tiers are listed as not taking policies.</source>
        <translation>作用于 Ingot 已知的所有位置（cache fleet）：本机的缓存、列表中的主机、以前打开过的 S3 缓存；Hub 仓库和 TorchNeuron 层级会列为不接受策略。</translation>
    </message>
    <message>
        <source>On this place (repeatable): a folder, host:NAME, s3://bucket/prefix.</source>
        <translation>作用于此位置（可重复）：文件夹、host:NAME、s3://bucket/prefix。</translation>
    </message>
    <message>
        <source>Append the run to the log of policy runs (the fleet page shows it).</source>
        <translation>将本次运行追加到策略运行日志（缓存总览页会显示）。</translation>
    </message>
    <message>
        <source>What started the run, as the log says it: cli (default) or schedule.</source>
        <translation>日志中记录的运行触发方式：cli（默认）或 schedule。</translation>
    </message>
    <message>
        <source>warning: the run was not logged: %1</source>
        <translation>警告：本次运行未记录到日志：%1</translation>
    </message>
    <message>
        <source>not reached: %1</source>
        <translation>未能访问：%1</translation>
    </message>
    <message>
        <source>policies do not apply: %1</source>
        <translation>策略不适用：%1</translation>
    </message>
    <message>
        <source>Policy %1: %2</source>
        <translation>策略 %1：%2</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>未能访问</translation>
    </message>
    <message>
        <source>Nothing to do.</source>
        <translation>无需操作。</translation>
    </message>
    <message>
        <source>Total: %1 removed, %2 skipped, %3 failed; %4 freed on disk (%5).</source>
        <translation>总计：已移除 %1 个，已跳过 %2 个，失败 %3 个；磁盘上释放了 %4（%5）。</translation>
    </message>
    <message>
        <source>error: Ingot knows no cache yet (cache fleet lists the places)</source>
        <translation>错误：Ingot 尚不知道任何缓存（cache fleet 会列出各位置）</translation>
    </message>
    <message numerus="yes">
        <source>Remove %n entries (%1) in these places?</source>
        <translation>
            <numerusform>要移除这些位置中的 %n 个条目（%1）吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>error: --trigger takes cli or schedule, not &quot;%1&quot;</source>
        <translation>错误：--trigger 只接受 cli 或 schedule，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>error: give one of --everywhere, --place ID…, or --cache-dir / --host</source>
        <translation>错误：请指定 --everywhere、--place ID… 或 --cache-dir / --host 之一</translation>
    </message>
    <message>
        <source>Apply a named policy to a cache or to every place at once (previewed; never locked entries): --policy NAME [--everywhere | --place ID]</source>
        <translation>将命名策略应用于某个缓存或一次性应用于所有位置（先预览；绝不处理已锁定的条目）：--policy NAME [--everywhere | --place ID]</translation>
    </message>
    <message>
        <source>set POLICY, rm POLICY or show</source>
        <translation>set POLICY、rm POLICY 或 show</translation>
    </message>
    <message>
        <source>set: on every place Ingot knows (cache fleet); the default.</source>
        <translation>set：作用于 Ingot 已知的所有位置（cache fleet）；默认值。</translation>
    </message>
    <message>
        <source>set: on this place only (repeat for more): a folder, host:NAME, s3://bucket/prefix.</source>
        <translation>set：仅作用于此位置（可重复以指定多个）：文件夹、host:NAME、s3://bucket/prefix。</translation>
    </message>
    <message>
        <source>set: when, as systemd&apos;s OnCalendar= takes it (daily, weekly, 03:00, Mon *-*-* 03:00); daily by default.</source>
        <translation>set：运行时间，格式同 systemd 的 OnCalendar=（daily、weekly、03:00、Mon *-*-* 03:00）；默认为 daily。</translation>
    </message>
    <message>
        <source>set: only print the unit files and the crontab line; install nothing.</source>
        <translation>set：仅打印单元文件和 crontab 行；不安装任何内容。</translation>
    </message>
    <message>
        <source>error: --everywhere or --place, not both</source>
        <translation>错误：--everywhere 和 --place 只能二选一</translation>
    </message>
    <message>
        <source>No cache policy on a schedule: ingot-cli cache schedule set POLICY [--place ID…] [--on-calendar daily]</source>
        <translation>没有按计划运行的缓存策略：ingot-cli cache schedule set POLICY [--place ID…] [--on-calendar daily]</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Places</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Next run</source>
        <translation>下次运行</translation>
    </message>
    <message>
        <source>Last run</source>
        <translation>上次运行</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>not running (%1)</source>
        <translation>未运行（%1）</translation>
    </message>
    <message>
        <source>no systemd user manager: cron</source>
        <translation>无 systemd 用户管理器：cron</translation>
    </message>
    <message>
        <source>everywhere</source>
        <translation>所有位置</translation>
    </message>
    <message>
        <source>error: cache schedule set POLICY [--everywhere | --place ID…] [--on-calendar SPEC] [--print] | rm POLICY | show</source>
        <translation>错误：cache schedule set POLICY [--everywhere | --place ID…] [--on-calendar SPEC] [--print] | rm POLICY | show</translation>
    </message>
    <message>
        <source>A policy on a schedule (a systemd user timer, or cron): set POLICY [--place ID…] [--on-calendar SPEC], rm POLICY, show</source>
        <translation>按计划运行策略（systemd 用户定时器或 cron）：set POLICY [--place ID…] [--on-calendar SPEC]、rm POLICY、show</translation>
    </message>
    <message numerus="yes">
        <source>Total: %n entries, %1; %2 not reached.</source>
        <translation>
            <numerusform>合计：%n 个条目，%1；%2 个位置无法访问。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 freed over %n place(s)</source>
        <translation>
            <numerusform>在 %n 个位置释放 %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::cli::Seed</name>
    <message>
        <source>A place to look in (a folder, host:NAME, s3://bucket/prefix, hub:org/name; repeatable, in order).</source>
        <translation>要查找的位置（文件夹、host:NAME、s3://bucket/prefix、hub:org/name；可重复，按顺序）。</translation>
    </message>
    <message>
        <source>The graphs, one a line (as KEY), from this file.</source>
        <translation>从此文件读取图，每行一个（作为 KEY）。</translation>
    </message>
    <message>
        <source>Only say what the cache has and where the rest is.</source>
        <translation>只说明缓存中已有哪些、其余在何处。</translation>
    </message>
    <message>
        <source>A graph: neuronxcc-&lt;ver&gt;/MODULE_…, or MODULE_… (the newest entry of that name).</source>
        <translation>图：neuronxcc-&lt;ver&gt;/MODULE_…，或 MODULE_…（该名称的最新条目）。</translation>
    </message>
    <message>
        <source>error: --keys-file: %1 cannot be read (or is over 64 MiB)</source>
        <translation>错误：--keys-file：无法读取 %1（或超过 64 MiB）</translation>
    </message>
    <message>
        <source>error: name the graphs (KEY… or --keys-file) and at least one --from PLACE</source>
        <translation>错误：请指定图（KEY… 或 --keys-file）以及至少一个 --from PLACE</translation>
    </message>
    <message>
        <source>error: --from: %1</source>
        <translation>错误：--from：%1</translation>
    </message>
    <message>
        <source>Bring compiled graphs this cache lacks from other places (what job launch --seed-cache does first)</source>
        <translation>从其他位置带入此缓存缺少的已编译的图（job launch --seed-cache 会先执行此操作）</translation>
    </message>
</context>
<context>
    <name>ingot::cli::SeedLaunch</name>
    <message>
        <source>Bring compiled graphs first: before training, copy the graphs of the last run with these settings that the job&apos;s cache lacks from PLACE (a folder, host:NAME, s3://bucket/prefix, hub:org/name; repeatable, looked in in order).</source>
        <translation>预先带入已编译的图：训练前，从 PLACE 复制作业缓存缺少的、使用相同设置的上次运行的图（文件夹、host:NAME、s3://bucket/prefix、hub:org/name；可重复，按顺序查找）。</translation>
    </message>
    <message>
        <source>With --slurm and --seed-cache: the nodes each keep their own cache: bring the graphs on each node of the allocation before training (srun; ingot-cli on the nodes&apos; PATH), not from here.</source>
        <translation>同时使用 --slurm 和 --seed-cache：各节点各自保留自己的缓存：在训练前于分配的每个节点上带入图（srun；节点的 PATH 中需有 ingot-cli），而不是从此处带入。</translation>
    </message>
    <message>
        <source>error: --seed-per-node goes with --slurm and --seed-cache</source>
        <translation>错误：--seed-per-node 需与 --slurm 和 --seed-cache 一起使用</translation>
    </message>
    <message>
        <source>error: --seed-cache: %1</source>
        <translation>错误：--seed-cache：%1</translation>
    </message>
    <message>
        <source>warning: --seed-cache: %1</source>
        <translation>警告：--seed-cache：%1</translation>
    </message>
    <message>
        <source>error: --seed-per-node: %1</source>
        <translation>错误：--seed-per-node：%1</translation>
    </message>
    <message numerus="yes">
        <source>note: --seed-cache: the %n graph(s) of %1 are brought on each node before the training, into its own %2 (ingot-cli cache seed, through srun)</source>
        <translation>
            <numerusform>注意：--seed-cache：训练前在每个节点上将 %1 的 %n 个图带入该节点自己的 %2（ingot-cli cache seed，通过 srun）</numerusform>
        </translation>
    </message>
    <message>
        <source>note: --seed-cache: %1</source>
        <translation>注意：--seed-cache：%1</translation>
    </message>
    <message>
        <source>error: --seed-cache: stopped; the job was not launched (%1)</source>
        <translation>错误：--seed-cache：已停止；作业未启动（%1）</translation>
    </message>
    <message>
        <source>warning: --seed-cache: the result could not be kept in the job&apos;s folder: %1</source>
        <translation>警告：--seed-cache：无法将结果保存在作业的文件夹中：%1</translation>
    </message>
</context>
<context>
    <name>ingot::units</name>
    <message>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation>
            <numerusform>%n 分钟前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation>
            <numerusform>%n 小时前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n days ago</source>
        <translation>
            <numerusform>%n 天前</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Neuron compile caches, Hub caches, training jobs and checkpoints.</source>
        <translation>Neuron 编译缓存、Hub 缓存、训练任务和检查点。</translation>
    </message>
    <message>
        <source>Open this cache folder.</source>
        <translation>打开此缓存文件夹。</translation>
    </message>
    <message>
        <source>Open the generated sample cache.</source>
        <translation>打开生成的示例缓存。</translation>
    </message>
    <message>
        <source>Open the consolidation wizard on this checkpoint folder.</source>
        <translation>针对此检查点文件夹打开合并向导。</translation>
    </message>
</context>
</TS>
